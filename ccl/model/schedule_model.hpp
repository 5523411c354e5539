#pragma once
// The syntax tree of a Cactus schedule.ccl file.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "ccl/model/common.hpp"

namespace opuntia::ccl {

/// The flesh's schedule bins in the order it runs them, as schedule.ccl names them after
/// `CCTK_` (which is optional there, in any case).
inline constexpr std::array<std::string_view, 17> schedule_bin_names{
    "STARTUP",  "WRAGH",    "PARAMCHECK", "BASEGRID", "INITIAL",   "POSTINITIAL", "POSTPOSTINITIAL",
    "RECOVER_VARIABLES",    "POST_RECOVER_VARIABLES", "CPINITIAL", "PRESTEP",     "EVOL",
    "POSTSTEP", "CHECKPOINT", "ANALYSIS", "TERMINATE", "SHUTDOWN"};

/// `LANG: C`, `SYNC: a, b`, `READS: impl::v(everywhere)`, ... inside a schedule block.
struct schedule_clause_syntax {
  located_text key;                 // upper case: LANG, SYNC, STORAGE, TRIGGERS, READS, WRITES, ...
  std::vector<located_text> items;  // as written, e.g. "impl::v(interior)", "group[2]", "key=value"
};

/// `schedule [GROUP] <name> AT|IN <where> [AS a] [WHILE v] [IF v] [BEFORE|AFTER n|(a b)] { ... } "desc"`
struct schedule_item_syntax {
  source_location where;   // of the `schedule` keyword
  bool is_group = false;
  located_text name;
  std::string placement;   // "at" or "in"
  located_text target;     // bin or group name as written (CCTK_ prefix kept)
  std::string alias;       // AS
  std::vector<located_text> while_vars;  // WHILE impl::v (parentheses removed)
  std::vector<located_text> until_vars;  // UNTIL impl::v
  std::vector<located_text> if_vars;     // IF impl::v
  std::vector<located_text> before;
  std::vector<located_text> after;
  std::vector<schedule_clause_syntax> clauses;
  std::string description;
};

/// A statement: a schedule item, a STORAGE line, or an if/else block decided from parameters.
struct schedule_statement_syntax {
  enum class kind { item, storage, conditional };
  kind what = kind::item;
  source_location where;
  schedule_item_syntax item;               // kind::item
  std::vector<located_text> storage;       // kind::storage: "group" or "group[n]"
  std::string condition;                   // kind::conditional: the text inside if ( ... )
  std::vector<schedule_statement_syntax> then_branch;
  std::vector<schedule_statement_syntax> else_branch;  // `else if` nests one conditional here
};

struct schedule_file {
  std::string path;
  std::vector<schedule_statement_syntax> statements;
};

}  // namespace opuntia::ccl
