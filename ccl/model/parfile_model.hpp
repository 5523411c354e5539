#pragma once
// The syntax tree of a Cactus parameter file (.par). Values stay expressions here; the flesh
// evaluates them against the parameter registry (types, ranges, references, $parfile).
#include <optional>
#include <string>
#include <vector>

#include "ccl/model/common.hpp"

namespace opuntia::ccl {

/// A value: `128`, `1.d-3`, `"text"`, `yes`, `2*pi/64`, `sqrt(2)`, `Driver::global_nx - 1`, `$parfile`.
struct parfile_expression {
  enum class kind {
    number,     // text: the literal as written
    string,     // text: the unquoted content
    word,       // text: a bare word (yes, no, full, pi, ...)
    parameter,  // text: impl::name, a reference to another parameter
    parfile,    // text: the variable after '$' (parfile)
    unary,      // text: "+" or "-"; one operand
    binary,     // text: "**"; two operands (2**3**2 is 2**(3**2))
    chain,      // operators: "+" and "-", or "*" and "/"; operands: one more than operators.
                // `a - b + c` is ((a - b) + c): applied left to right. One flat node, so that a
                // sum of 200,000 terms is not a tree 200,000 deep.
    call,       // text: the function name; its arguments
  };
  kind what = kind::number;
  std::string text;
  std::vector<parfile_expression> operands;
  std::vector<std::string> operators;  // chain: the operator before each operand but the first
  /// string: where `$parfile` or `${parfile}` stood in the text (offsets into `text`, ascending,
  /// the token removed), for the evaluator to put the file's name; `\$parfile` is text.
  std::vector<std::size_t> parfile_at;
  source_location where;               // chain, binary: the first operand's
};

/// `ActiveThorns = "a b c"` or `impl::name[index] = value`.
struct parfile_statement {
  enum class kind { active_thorns, assignment };
  kind what = kind::assignment;
  source_location where;
  std::vector<located_text> thorns;               // active_thorns: each name with its place
  located_text implementation;                    // assignment: the part before '::'
  located_text name;                              // assignment: the parameter
  std::optional<parfile_expression> index;        // assignment: p[index]
  parfile_expression value;                       // assignment
  std::string value_text;                         // assignment: the value as written
};

struct parfile_file {
  std::string path;
  std::string description;  // !DESC "..."
  std::vector<parfile_statement> statements;
};

}  // namespace opuntia::ccl
