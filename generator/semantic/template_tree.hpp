#pragma once
// deps.ccl after the semantic pass: templates with their keys interpreted and their triggers
// resolved, and the matching of a kernel's TYPE against the tree.
#include <cstddef>
#include <string>
#include <vector>

#include "ccl/model/deps_model.hpp"

namespace opuntia::gen {

// The generator works in the terms of ccl/: source files, diagnostics, syntax trees.
using namespace opuntia::ccl;

enum class template_scope_kind { file, group };

struct template_node {
  std::string name;                     // as declared, e.g. 3dblock$comp
  std::string stem;                     // without the $suffix: 3dblock
  std::vector<std::string> group_path;  // e.g. {"openmp"}; group_path[0] is the backend
  template_scope_kind scope = template_scope_kind::file;
  bool compile = false;
  bool replace = true;
  std::string file;                     // template file, relative to the templates directory
  located_text file_as_written;         // the file= value as written in deps.ccl, and its place
  std::vector<std::size_t> triggers;    // indices into template_tree::templates
  std::vector<std::size_t> includes;
  std::vector<schedule_string_syntax> schedules;
  std::string description;
  source_location where;

  const std::string& backend() const { return group_path.front(); }
  /// Whether a kernel's TYPE may name this template: per-kernel ones without a `$suffix`.
  /// Templates with a `$suffix` and thorn-wide ones are helpers, reached through triggers.
  bool selectable() const { return scope == template_scope_kind::file && name.find('$') == std::string::npos; }
  /// group path and name joined by '/': openmp/3dblock
  std::string path() const;
};

struct template_tree {
  std::string deps_path;
  std::vector<template_node> templates;
  std::vector<std::string> backends;  // top-level group names, in file order

  /// Templates a kernel TYPE names within `backend`: `3dblock` (any group), `*/3dblock`,
  /// `openmp/3dblock`, with `a|b` alternatives and `*` globs in any segment; names compare
  /// case-insensitively; only selectable() templates match. In the order of the template name's
  /// alternatives (`*/3dstencil|3dblock`: 3dstencil's matches first), each alternative's matches
  /// in deps.ccl order: a kernel's first variant, which runs untuned, is the one TYPE names first.
  std::vector<std::size_t> match(const std::string& type_pattern, const std::string& backend) const;

  /// The selectable templates, in any backend and group, whose name the last segment of
  /// `type_pattern` matches (its alternatives and globs): where a TYPE's template name exists
  /// when its group path matches none of them.
  std::vector<std::size_t> match_name(const std::string& type_pattern) const;

  /// `roots` and everything they trigger or include, transitively, each once, in a stable order.
  std::vector<std::size_t> closure(const std::vector<std::size_t>& roots) const;
};

/// A kernel TYPE one pattern per alternative of its template name: `*/3dblock|3dstencil` gives
/// `*/3dblock` and `*/3dstencil`.
std::vector<std::string> type_alternatives(const std::string& type_pattern);

/// Interprets keys, resolves trigger and include names (innermost group outwards) and rejects
/// cycles. Throws input_error listing every problem.
template_tree build_template_tree(const deps_file& deps);

}  // namespace opuntia::gen
