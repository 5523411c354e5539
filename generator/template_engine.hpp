#pragma once
// The template language of docs/SYNTAX.md: what turns a template file and the values of one
// kernel (or one thorn) into generated code.
//
//   %{name} or %name          a value of the innermost scope that has it (re-expanded, bounded)
//   %var(v)                   the current value of the %for_loop variable v
//   %for_loop(v, 'lo', 'hi'[, "delimit=s"]) %[ body ]%
//                             body for v = lo, lo+1, ..., hi-1 (down from lo to hi+1 if hi < lo);
//                             lo and hi are expanded, then evaluated as integer arithmetic
//   %<x>_loop("key=a|b", ..., "delimit=s") %[ body ]%
//                             body once per item of the scope's loop `<x>_loop` (var_loop,
//                             param_loop, kernel_loop, ...) that matches every filter
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

/// Pads each run of consecutive lines that end in '\' so their backslashes share one column.
std::string align_continuations(const std::string& text);

/// Doubles every '%' so that user text (descriptions) reaches the output unexpanded.
std::string escape_template_text(const std::string& text);

}  // namespace opuntia::gen
