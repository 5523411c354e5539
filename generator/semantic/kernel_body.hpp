#pragma once
// What the generator reads of a kernel body: its I3D and I3D_l accesses, found by a small C
// scanner that passes over comments, literals and preprocessor lines. The semantic pass checks
// them against the kernel's descriptor (check_thorn.cpp), so that a variable the kernel does not
// list, or a constant offset beyond its STENCIL, is an error at the body's line: not ten errors
// of a compiler in generated files, nor a run that reads past its arrays.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ccl/diagnostic.hpp"
#include "ccl/source_file.hpp"

namespace opuntia::gen {

/// A 1-based line and column of a body.
struct body_position {
  std::size_t line = 1;
  std::size_t column = 1;
};

/// One argument of an access, as written.
struct access_argument {
  std::string text;                // blanks around it removed
  body_position where;             // of its first character
  std::optional<long long> value;  // where it is an integer constant expression: 2, -1, (1 + 1)
};

/// `I3D(v, di, dj, dk)` or `I3D_l(v, di, dj, dk)` in a body.
struct body_access {
  std::string macro;  // I3D or I3D_l
  body_position where;
  std::vector<access_argument> arguments;
  bool writes = false;  // followed by `=` or a compound assignment (`+=`, ...)
  bool reads = true;    // not followed by a plain `=`

  /// The variable when the first argument is a plain identifier; empty otherwise.
  std::string variable() const;
  /// "I3D(u, 2, 0, 0)": the access with its arguments as written, one blank after each comma.
  std::string text() const;
};

/// Every I3D and I3D_l of `body` followed by a parenthesised argument list, in order (one
/// inside another's arguments included). Those in comments, string and character literals,
/// preprocessor directives (a macro's parameters are not variables) and `#if 0` blocks are left
/// out.
std::vector<body_access> find_accesses(std::string_view body);

/// Whether a preprocessor directive of `body` (a macro's definition, an #include) names
/// `identifier`: what such a macro does at its uses find_accesses cannot see.
bool directives_name(std::string_view body, std::string_view identifier);

/// The value of `text` when it is an integer constant expression of decimal literals, unary
/// and binary + and -, *, and parentheses; nullopt for anything else (a name, a call, a float).
std::optional<long long> integer_constant(std::string_view text);

/// A frame macro of a body, `CAKERNEL_<kernel>_<part>` with part Begin, Computations_Begin,
/// Computations_End or End, outside comments, literals and preprocessor lines.
struct frame_macro {
  std::string kernel;
  std::string part;
  body_position where;
};
/// A comment or `#if 0` that a body leaves open: where it opens, and what is wrong.
struct unclosed_construct {
  body_position where;
  std::string message;
};
/// Every frame macro of `body`, in order, those of kernel `kernel` read as its own first; and
/// the comment or `#if 0` the body ends in, where it ends in one.
struct body_frame {
  std::vector<frame_macro> macros;
  std::optional<unclosed_construct> unclosed;
};
body_frame find_frame_macros(std::string_view body, std::string_view kernel);

/// The errors of the frame of kernel `kernel`'s body: its own CAKERNEL_<kernel>_Begin,
/// _Computations_Begin, _Computations_End and _End, once each and in that order (where its
/// templates define them: generate.cpp); at most one, at the first macro out of place, or at
/// the last in place where one is missing.
std::vector<ccl::diagnostic> frame_errors(const std::string& kernel, const ccl::source_file& body);

}  // namespace opuntia::gen
