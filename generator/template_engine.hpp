#pragma once
// The template language of docs/SYNTAX.md: what turns a template file and the values of one
// kernel (or one thorn) into generated code.
//
//   %{name} or %name          a value of the innermost scope that has it (re-expanded, bounded:
//                             a value is template text; insert user text with escape_template_text)
//   %var(v)                   the current value of the %for_loop variable v
//   %for_loop(v, 'lo', 'hi'[, "delimit=s"]) %[ body ]%
//                             body for v = lo, lo+1, ..., hi-1 (down from lo to hi+1 if hi < lo);
//                             lo and hi are expanded, then evaluated as integer arithmetic
//   %<x>_loop("key=a|b", ..., "delimit=s") %[ body ]%
//                             body once per item of the scope's loop `<x>_loop` (var_loop,
//                             param_loop, kernel_loop, ...) that matches every filter; a key
//                             the loop lacks, or a value outside the key's known values, is an
//                             error at its place in the filter
//   %%                        a literal '%'
// A '%' followed by anything else (a blank, a digit, punctuation) is kept as written, so C's
// modulo operator needs no escape. Unknown names and directives are errors with their place.
#include <map>
#include <string>
#include <vector>

#include "ccl/source_file.hpp"

namespace opuntia::gen {

// The generator works in the terms of ccl/: source files, diagnostics, syntax trees.
using namespace opuntia::ccl;

struct template_scope;

/// The items a `%<x>_loop` iterates, and the keys its filters may name.
struct template_loop {
  std::vector<std::string> keys;
  std::vector<template_scope> items;
  /// For keys whose values form a closed set (intent: in, out, ...): every value a filter on the
  /// key may name, whether or not an item has it. A filter naming another is an error. Keys not
  /// listed here (names) accept any text.
  std::map<std::string, std::vector<std::string>> values = {};
};

/// Values and loops visible to a template. A loop item is a scope nested in the one that owns
/// the loop: its values shadow the outer ones.
struct template_scope {
  std::map<std::string, std::string> values;
  std::map<std::string, template_loop> loops;
};

struct render_options {
  /// How deep values may expand into values before the expansion is called a runaway.
  int max_expansion_depth = 32;
  /// Pad lines ending in a backslash so the backslashes of each run of such lines align.
  bool align_continuations = true;
};

/// Renders `tpl` with `scope`. Pure: no I/O. Throws input_error pointing into `tpl`.
std::string render_template(const source_file& tpl, const template_scope& scope,
                            const render_options& options = {});

/// Renders `tpl` like render_template, never aligning continuations, and records where each
/// byte of the result came from: `origins[i]` is the byte offset in `tpl.text` of output byte
/// i. Literal text maps to where it was written; whatever a directive produced (a value, a
/// loop's delimiter, the text of an expanded value) maps to the '%' of that directive, in the
/// template itself. For errors found in rendered text that must point into the template.
std::string render_template_mapped(const source_file& tpl, const template_scope& scope,
                                   std::vector<std::size_t>& origins, const render_options& options = {});

/// Pads each run of consecutive lines that end in '\' so their backslashes share one column.
std::string align_continuations(const std::string& text);

/// Doubles every '%' so that user text (names, paths, descriptions: anything read from a thorn's
/// files) reaches the output as written, never expanded as template code.
std::string escape_template_text(const std::string& text);

}  // namespace opuntia::gen
