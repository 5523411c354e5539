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

/// Whether `name` begins with `CCTK_`, in any case, as a bin may be written.
inline bool has_cctk_prefix(std::string_view name) { return name.size() >= 5 && iequals(name.substr(0, 5), "cctk_"); }

/// "EVOL", "evol", "CCTK_EVOL", "cctk_evol" -> its index in schedule_bin_names; -1 for no bin.
/// Without copies: the flesh asks for its bins by name in every iteration.
inline int schedule_bin_index(std::string_view name) {
  if (has_cctk_prefix(name)) name.remove_prefix(5);
  for (std::size_t i = 0; i < schedule_bin_names.size(); ++i) {
    if (iequals(schedule_bin_names[i], name)) return static_cast<int>(i);
  }
  return -1;
}

/// The bins' names spelled as `like` is, with `CCTK_` where it has it: the candidates of a "did you
/// mean" for an unknown bin.
inline const std::vector<std::string>& schedule_bins_spelled_like(std::string_view like) {
  static const std::vector<std::string> plain(schedule_bin_names.begin(), schedule_bin_names.end());
  static const std::vector<std::string> prefixed = [] {
    std::vector<std::string> out;
    for (const auto& b : plain) out.push_back("CCTK_" + b);
    return out;
  }();
  return has_cctk_prefix(like) ? prefixed : plain;
}

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
  std::string condition;                   // kind::conditional: the text inside if ( ... ), trimmed
  source_location condition_where;         // where that text begins
  std::vector<schedule_statement_syntax> then_branch;
  std::vector<schedule_statement_syntax> else_branch;  // `else if` nests one conditional here
};

struct schedule_file {
  std::string path;
  std::vector<schedule_statement_syntax> statements;
};

}  // namespace opuntia::ccl
