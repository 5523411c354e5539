#include "generator/template_engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ccl/diagnostic.hpp"
#include "ccl/source_file.hpp"
#include "generator/file_io.hpp"
#include "generator/generate.hpp"

namespace opuntia::gen {
namespace {

template_scope variable(const std::string& vname, const std::string& intent, const std::string& cached) {
  return template_scope{{{"vname", vname}, {"intent", intent}, {"cached", cached}}, {}};
}

/// A kernel with three variables, as a 3DSTENCIL template sees it.
template_scope kernel_scope() {
  template_scope scope;
  scope.values = {{"name", "heat"}, {"stencil_zn", "1"}, {"stencil_zp", "2"}, {"tile_x", "16"}};
  scope.loops["var_loop"] = template_loop{
      {"intent", "cached"}, {variable("u", "in", "yes"), variable("v", "inout", "no"), variable("w", "out", "yes")}};
  return scope;
}

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

render_options unaligned() {
  render_options options;
  options.align_continuations = false;
  return options;
}

std::string render(const std::string& text, const template_scope& scope = kernel_scope(),
                   const render_options& options = unaligned()) {
  return render_template(source_file{"t.tpl", text}, scope, options);
}

/// The full diagnostic text of rendering `text`, or "no error".
std::string error_of(const std::string& text, const template_scope& scope = kernel_scope(),
                     const render_options& options = unaligned()) {
  try {
    render(text, scope, options);
  } catch (const input_error& e) {
    return format_diagnostics(e.diagnostics());
  }
  return "no error";
}

// --- literal text and names ---------------------------------------------------------

TEST(template_engine, renders_empty_template_as_empty) { EXPECT_EQ(render(""), ""); }

TEST(template_engine, keeps_literal_text) {
  EXPECT_EQ(render("int main() { return a[i] + b[j]; }\n"), "int main() { return a[i] + b[j]; }\n");
}

TEST(template_engine, expands_braced_and_plain_names) {
  EXPECT_EQ(render("CAKERNEL_%{name}_Begin %name.tile=%{tile_x}"), "CAKERNEL_heat_Begin heat.tile=16");
}

TEST(template_engine, double_percent_is_a_literal_percent) {
  EXPECT_EQ(render("100%% %%{name} %%%name"), "100% %{name} %heat");
}

TEST(template_engine, keeps_c_modulo_and_lone_percent) {
  EXPECT_EQ(render("x = a % b; y = i%2; z = (i+1)% 4; w = 5%;\n%"), "x = a % b; y = i%2; z = (i+1)% 4; w = 5%;\n%");
}

TEST(template_engine, renders_bare_group_blocks) { EXPECT_EQ(render("<%[a%[b]%c]%>"), "<abc>"); }

TEST(template_engine, block_close_followed_by_percent_escape_is_text) {
  // ']%%' is ']' and an escaped '%', so escaped user text like "a[i]%n" stays literal.
  EXPECT_EQ(render("a[i]%%n"), "a[i]%n");
  EXPECT_EQ(render("%[x]%]%%y"), "x]%y");
}

TEST(template_engine, renders_crlf_template) {
  EXPECT_EQ(render("a %{name}\r\n%var_loop()%[%vname\r\n]%end\r\n"), "a heat\r\nu\r\nv\r\nw\r\nend\r\n");
}

TEST(template_engine, is_deterministic) {
  const std::string text = "%var_loop(\"delimit=,\")%[%vname%for_loop(i,'0','2')%[%var(i)]%]%";
  EXPECT_EQ(render(text), render(text));
  EXPECT_EQ(render(text), "u01,v01,w01");
}

// --- for_loop ------------------------------------------------------------------------

TEST(template_engine, unrolls_for_loop_counting_up) {
  EXPECT_EQ(render("%for_loop(i, '0', '3') %[a[%var(i)];]%"), "a[0];a[1];a[2];");
}

TEST(template_engine, unrolls_for_loop_counting_down) {
  EXPECT_EQ(render("%for_loop(i,'3','0')%[%var(i) ]%"), "3 2 1 ");
}

TEST(template_engine, for_loop_with_equal_bounds_renders_nothing) {
  EXPECT_EQ(render("<%for_loop(i,'2','2')%[x]%>"), "<>");
}

TEST(template_engine, expands_then_evaluates_for_loop_bounds) {
  EXPECT_EQ(render("%for_loop(k,'-%{stencil_zn}', '%{stencil_zp}+1')%[%{var(k)},]%"), "-1,0,1,2,");
}

TEST(template_engine, evaluates_bounds_with_c_integer_arithmetic) {
  // -7/2 truncates to -3; -6 % 4 is -2 in C.
  EXPECT_EQ(render("%for_loop(i, '-7/2', '-(1+1)*3 % 4 - 5') %[%var(i) ]%"), "-3 -4 -5 -6 ");
  EXPECT_EQ(render("%for_loop(i, '  ((2)) * +3 ', '--8')%[%var(i)]%"), "67");
}

TEST(template_engine, joins_for_loop_iterations_with_delimiter) {
  EXPECT_EQ(render("%for_loop(i,'0','3',\"delimit=, \")%[x%var(i)]%"), "x0, x1, x2");
  EXPECT_EQ(render("%for_loop(i,'0','3', \"delimit=\\n\")%[x%var(i)]%"), "x0\nx1\nx2");
}

TEST(template_engine, allows_newlines_inside_loop_header) {
  EXPECT_EQ(render("%for_loop(i,\n  '0',\n  '2')\n  %[%var(i)]%"), "01");
}

TEST(template_engine, inner_for_loop_variable_shadows_outer) {
  EXPECT_EQ(render("%for_loop(i,'0','2')%[%for_loop(i,'5','6')%[%var(i)]%-%var(i);]%"), "5-0;5-1;");
}

// --- scope loops -----------------------------------------------------------------------

TEST(template_engine, iterates_var_loop_items) {
  EXPECT_EQ(render("%var_loop() %[%vname ]%"), "u v w ");
  EXPECT_EQ(render("%var_loop %[%vname]%"), "uvw");
}

TEST(template_engine, filters_var_loop_items) {
  EXPECT_EQ(render("%var_loop(\"cached=yes\")%[%vname;]%"), "u;w;");
}

TEST(template_engine, filter_alternation_ignores_case) {
  EXPECT_EQ(render("%var_loop(\"intent=IN|Out\")%[%vname]%"), "uw");
  EXPECT_EQ(render("%var_loop(\"INTENT = in | inout\")%[%vname]%"), "uv");
}

TEST(template_engine, all_filters_must_match) {
  EXPECT_EQ(render("%var_loop(\"intent=in|inout\", \"cached=YES\")%[%vname]%"), "u");
  EXPECT_EQ(render("%var_loop(\"intent=in\", \"cached=no\")%[%vname]%"), "");
}

TEST(template_engine, item_without_the_filtered_value_matches_an_empty_filter) {
  template_scope scope;
  scope.loops["param_loop"] =
      template_loop{{"steerable"}, {template_scope{{{"p", "a"}, {"steerable", "always"}}, {}},
                                    template_scope{{{"p", "b"}}, {}}}};
  EXPECT_EQ(render("%param_loop(\"steerable=\")%[%p]%|%param_loop(\"steerable=ALWAYS\")%[%p]%", scope), "b|a");
}

TEST(template_engine, var_without_parenthesis_is_a_plain_name) {
  template_scope scope;
  scope.values["var"] = "x";
  EXPECT_EQ(render("%var %{var}", scope), "x x");
}

TEST(template_engine, joins_var_loop_items_with_delimiter) {
  EXPECT_EQ(render("f(%var_loop(\"delimit=,\\t\")%[%vname]%)"), "f(u,\tv,\tw)");
  EXPECT_EQ(render("f(%var_loop(\"cached=yes\", \"delimit=, \")%[%vname]%)"), "f(u, w)");
}

TEST(template_engine, nests_for_loop_inside_var_loop) {
  EXPECT_EQ(render("%var_loop(\"cached=yes\")%[%for_loop(i,'0','2')%[%vname%var(i) ]%]%"), "u0 u1 w0 w1 ");
}

TEST(template_engine, nests_var_loop_inside_for_loop) {
  EXPECT_EQ(render("%for_loop(i,'0','2')%[%var_loop(\"intent=in\")%[%vname[%var(i)]]%]%"), "u[0]u[1]");
}

TEST(template_engine, renders_figure_2_fragment) {
  const std::string fig2 =
      "%for_loop(tmpi,'-%{stencil_zn}', '%{stencil_zp}') %[ %var_loop(\"cached=yes\") %[ I3D_l(%vname, 0, 0, "
      "%var(tmpi)) = I3D_l(%vname, 0, 0, %var(tmpi) + 1);\\ ]% ]%";
  EXPECT_EQ(render(fig2),
            "  I3D_l(u, 0, 0, -1) = I3D_l(u, 0, 0, -1 + 1);\\  I3D_l(w, 0, 0, -1) = I3D_l(w, 0, 0, -1 + 1);\\  "
            "  I3D_l(u, 0, 0, 0) = I3D_l(u, 0, 0, 0 + 1);\\  I3D_l(w, 0, 0, 0) = I3D_l(w, 0, 0, 0 + 1);\\  "
            "  I3D_l(u, 0, 0, 1) = I3D_l(u, 0, 0, 1 + 1);\\  I3D_l(w, 0, 0, 1) = I3D_l(w, 0, 0, 1 + 1);\\  ");
}

const char* const fig2_macro =
    "#define CAKERNEL_%{name}_Iterate_Local_Tile \\\n"
    "%for_loop(tmpi,'-%{stencil_zn}',\n"
    "          '%{stencil_zp}') %[%var_loop(\"cached=yes\") %[  I3D_l(%vname, 0, 0, %var(tmpi)) = "
    "I3D_l(%vname, 0, 0, %var(tmpi) + 1); \\\n"
    "]%]%  gk = gk2 + tmpj;\n";

TEST(template_engine, unrolls_figure_2_macro) {
  EXPECT_EQ(render(fig2_macro),
            "#define CAKERNEL_heat_Iterate_Local_Tile \\\n"
            "  I3D_l(u, 0, 0, -1) = I3D_l(u, 0, 0, -1 + 1); \\\n"
            "  I3D_l(w, 0, 0, -1) = I3D_l(w, 0, 0, -1 + 1); \\\n"
            "  I3D_l(u, 0, 0, 0) = I3D_l(u, 0, 0, 0 + 1); \\\n"
            "  I3D_l(w, 0, 0, 0) = I3D_l(w, 0, 0, 0 + 1); \\\n"
            "  I3D_l(u, 0, 0, 1) = I3D_l(u, 0, 0, 1 + 1); \\\n"
            "  I3D_l(w, 0, 0, 1) = I3D_l(w, 0, 0, 1 + 1); \\\n"
            "  gk = gk2 + tmpj;\n");
}

TEST(template_engine, aligns_continuations_of_rendered_macro) {
  EXPECT_EQ(render(fig2_macro, kernel_scope(), render_options{}),
            "#define CAKERNEL_heat_Iterate_Local_Tile       \\\n"
            "  I3D_l(u, 0, 0, -1) = I3D_l(u, 0, 0, -1 + 1); \\\n"
            "  I3D_l(w, 0, 0, -1) = I3D_l(w, 0, 0, -1 + 1); \\\n"
            "  I3D_l(u, 0, 0, 0) = I3D_l(u, 0, 0, 0 + 1);   \\\n"
            "  I3D_l(w, 0, 0, 0) = I3D_l(w, 0, 0, 0 + 1);   \\\n"
            "  I3D_l(u, 0, 0, 1) = I3D_l(u, 0, 0, 1 + 1);   \\\n"
            "  I3D_l(w, 0, 0, 1) = I3D_l(w, 0, 0, 1 + 1);   \\\n"
            "  gk = gk2 + tmpj;\n");
}

// --- scopes and re-expansion -------------------------------------------------------------

TEST(template_engine, inner_scope_shadows_outer_values) {
  template_scope scope;
  scope.values = {{"vname", "global"}, {"type", "CCTK_REAL"}};
  scope.loops["var_loop"] = template_loop{{}, {template_scope{{{"vname", "a"}}, {}},
                                               template_scope{{{"vname", "b"}, {"type", "CCTK_INT"}}, {}}}};
  EXPECT_EQ(render("%vname:%var_loop()%[ %type %vname;]% %vname", scope), "global: CCTK_REAL a; CCTK_INT b; global");
}

TEST(template_engine, nested_loops_see_every_enclosing_item) {
  template_scope scope;
  template_scope group{{{"group", "g1"}}, {}};
  group.loops["var_loop"] = template_loop{{}, {template_scope{{{"vname", "x"}}, {}}, template_scope{{{"vname", "y"}}, {}}}};
  scope.loops["group_loop"] = template_loop{{}, {group}};
  EXPECT_EQ(render("%group_loop()%[%var_loop()%[%group::%vname ]%]%", scope), "g1::x g1::y ");
}

TEST(template_engine, re_expands_values_containing_directives) {
  template_scope scope = kernel_scope();
  scope.values["full"] = "%{name}_%{vname}";
  scope.values["unroll"] = "%for_loop(i,'0','%{stencil_zp}')%[x%var(i)]%";
  scope.values["percent"] = "50%% or 50%";
  scope.values["nested"] = "[%full]";
  EXPECT_EQ(render("%var_loop()%[%nested ]%", scope), "[heat_u] [heat_v] [heat_w] ");
  EXPECT_EQ(render("%unroll %percent", scope), "x0x1 50% or 50%");
}

TEST(template_engine, values_see_the_enclosing_for_loop_variable) {
  template_scope scope = kernel_scope();
  scope.values["at"] = "I3D(%vname, 0, 0, %var(k))";
  EXPECT_EQ(render("%var_loop(\"intent=out\")%[%for_loop(k,'0','2')%[%at;]%]%", scope),
            "I3D(w, 0, 0, 0);I3D(w, 0, 0, 1);");
}

TEST(template_engine, same_name_in_a_new_scope_is_not_a_cycle) {
  template_scope scope;
  scope.values["body"] = "(%var_loop()%[%body]%)";
  scope.loops["var_loop"] = template_loop{{}, {template_scope{{{"body", "leaf"}}, {}}}};
  EXPECT_EQ(render("%body", scope), "(leaf)");
}

// --- continuation alignment and escaping ----------------------------------------------

TEST(template_engine, aligns_each_run_of_continuation_lines) {
  EXPECT_EQ(align_continuations("#define A \\\n  a;\\\n  longer;   \\\n  end\nx\\\n\n#define B\t\\\n  y \\\n"),
            "#define A \\\n  a;      \\\n  longer; \\\n  end\nx \\\n\n#define B \\\n  y       \\\n");
}

TEST(template_engine, keeps_crlf_when_aligning_continuations) {
  EXPECT_EQ(align_continuations("#define A \\\r\n  abc; \\\r\n  d\r\n"), "#define A \\\r\n  abc;    \\\r\n  d\r\n");
}

TEST(template_engine, aligns_last_line_without_newline_and_leaves_other_text_alone) {
  EXPECT_EQ(align_continuations("a\\\nbbb\\"), "a   \\\nbbb \\");
  EXPECT_EQ(align_continuations("no continuation here\n"), "no continuation here\n");
  EXPECT_EQ(align_continuations(""), "");
}

TEST(template_engine, escape_template_text_doubles_every_percent) {
  EXPECT_EQ(escape_template_text("50% of %{x} and a[i]%n"), "50%% of %%{x} and a[i]%%n");
  const std::string user_text = "rate in % of %name, %[x]% and a[i]%n";
  EXPECT_EQ(render(escape_template_text(user_text)), user_text);
}

// --- errors: the exact diagnostic text -----------------------------------------------------

TEST(template_engine, error_unknown_name_suggests_nearest) {
  EXPECT_EQ(error_of("x = 1;\nx = %{stencil_zm};\n"),
            "t.tpl:2:5: error: unknown name 'stencil_zm'; did you mean 'stencil_zn' or 'stencil_zp'?\n"
            "x = %{stencil_zm};\n"
            "    ^\n");
}

TEST(template_engine, error_unknown_loop_lists_loops) {
  EXPECT_EQ(error_of("  %varr_loop() %[x]%"),
            "t.tpl:1:3: error: unknown loop 'varr_loop' (loops here: for_loop, var_loop); did you mean "
            "'var_loop' or 'for_loop'?\n"
            "  %varr_loop() %[x]%\n"
            "  ^\n");
}

TEST(template_engine, error_unknown_filter_key_lists_keys) {
  // At the key, in the filter, not at the loop.
  EXPECT_EQ(error_of("%var_loop(\"intnt=in\") %[x]%"),
            "t.tpl:1:12: error: unknown filter key 'intnt' for var_loop (its keys: intent, cached, delimit); did "
            "you mean 'intent'?\n"
            "%var_loop(\"intnt=in\") %[x]%\n"
            "           ^\n");
  EXPECT_EQ(error_of("%var_loop(\"intent=in\", \" bogus = yes\") %[x]%"),
            "t.tpl:1:26: error: unknown filter key 'bogus' for var_loop (its keys: intent, cached, delimit)\n"
            "%var_loop(\"intent=in\", \" bogus = yes\") %[x]%\n"
            "                         ^\n");
}

/// kernel_scope() whose var_loop knows the values of intent and cached, as the generator's does.
template_scope kernel_scope_with_values() {
  template_scope scope = kernel_scope();
  scope.loops["var_loop"].values = {{"intent", {"in", "out", "inout", "separateinout"}}, {"cached", {"yes", "no"}}};
  return scope;
}

TEST(template_engine, error_unknown_filter_value_lists_values) {
  const auto scope = kernel_scope_with_values();
  EXPECT_EQ(error_of("%var_loop(\"intent=bogus\") %[x]%", scope),
            "t.tpl:1:19: error: unknown value 'bogus' for filter key 'intent' of var_loop (its values: in, out, "
            "inout, separateinout)\n"
            "%var_loop(\"intent=bogus\") %[x]%\n"
            "                  ^\n");
  // The alternative that is wrong, among good ones, with the nearest values.
  EXPECT_EQ(error_of("a\n  %var_loop(\"cached=yes\", \"intent=in| inot\") %[x]%", scope),
            "t.tpl:2:39: error: unknown value 'inot' for filter key 'intent' of var_loop (its values: in, out, "
            "inout, separateinout); did you mean 'inout' or 'in'?\n"
            "  %var_loop(\"cached=yes\", \"intent=in| inot\") %[x]%\n"
            "                                      ^\n");
  EXPECT_EQ(error_of("%var_loop(\"cached=maybe\") %[x]%", scope),
            "t.tpl:1:19: error: unknown value 'maybe' for filter key 'cached' of var_loop (its values: yes, no)\n"
            "%var_loop(\"cached=maybe\") %[x]%\n"
            "                  ^\n");
  // A filter with an escape in it: its bytes are placed through the escape, at the alternative.
  EXPECT_EQ(error_of("%var_loop(\"intent=in|b\\ogus\") %[x]%", scope).substr(0, 52),
            "t.tpl:1:22: error: unknown value 'bogus' for filter ");
  // ... and after it: "\\x" is one byte of the value, two of the line.
  EXPECT_EQ(error_of("%var_loop(\"intent=\\in|bogus\") %[x]%", scope),
            "t.tpl:1:23: error: unknown value 'bogus' for filter key 'intent' of var_loop (its values: in, out, "
            "inout, separateinout)\n"
            "%var_loop(\"intent=\\in|bogus\") %[x]%\n"
            "                      ^\n");
  // Checked even where no item would match, and the key may be spelt in any case.
  template_scope empty = scope;
  empty.loops["var_loop"].items.clear();
  EXPECT_EQ(error_of("%var_loop(\"INTENT=ni\") %[x]%", empty).substr(0, 58),
            "t.tpl:1:19: error: unknown value 'ni' for filter key 'inte");
}

TEST(template_engine, known_filter_values_match_in_any_case_and_empty_alternatives) {
  const auto scope = kernel_scope_with_values();
  EXPECT_EQ(render("%var_loop(\"intent=IN|Out\", \"delimit=,\") %[%vname]%", scope), "u,w");
  EXPECT_EQ(render("%var_loop(\"intent=\") %[%vname]%", scope), "");
  // Keys without a closed set of values accept any text.
  EXPECT_EQ(render("%var_loop(\"intent=whatever\") %[x]%", kernel_scope()), "");
}

TEST(template_engine, error_unterminated_block_says_where_it_opened) {
  EXPECT_EQ(error_of("a\n  %var_loop() %[ x\n  y\n"),
            "t.tpl:3:4: error: unterminated block: the '%[' at line 2, column 15 has no closing ']%'; found end "
            "of file\n"
            "  y\n"
            "   ^\n");
}

TEST(template_engine, error_stray_block_close) {
  EXPECT_EQ(error_of("%[a]% b ]% c\n"),
            "t.tpl:1:9: error: unmatched ']%': no '%[' is open; found ']'\n"
            "%[a]% b ]% c\n"
            "        ^\n");
}

TEST(template_engine, error_bad_for_loop_bound) {
  EXPECT_EQ(error_of("%for_loop(i, '0', '3 +') %[x]%"),
            "t.tpl:1:1: error: bad upper bound '3 +' of for_loop 'i': expected a number at the end\n"
            "%for_loop(i, '0', '3 +') %[x]%\n"
            "^\n");
  EXPECT_EQ(error_of("%for_loop(i, 'n', '3') %[x]%"),
            "t.tpl:1:1: error: bad lower bound 'n' of for_loop 'i': expected a number, found 'n'\n"
            "%for_loop(i, 'n', '3') %[x]%\n"
            "^\n");
}

TEST(template_engine, error_division_by_zero_in_bound) {
  EXPECT_EQ(error_of("  %for_loop(i, '4/(%{stencil_zn}-1)', '0') %[x]%"),
            "t.tpl:1:3: error: bad lower bound '4/(1-1)' of for_loop 'i': division by zero\n"
            "  %for_loop(i, '4/(%{stencil_zn}-1)', '0') %[x]%\n"
            "  ^\n");
}

TEST(template_engine, error_unknown_name_in_bound_points_at_for_loop) {
  EXPECT_EQ(error_of("%for_loop(i, '0', '%{stencil_z}') %[x]%"),
            "t.tpl:1:1: error: unknown name 'stencil_z'; did you mean 'stencil_zn' or 'stencil_zp'? (in the "
            "upper bound of for_loop 'i')\n"
            "%for_loop(i, '0', '%{stencil_z}') %[x]%\n"
            "^\n");
}

TEST(template_engine, error_missing_block_after_loop) {
  EXPECT_EQ(error_of("%var_loop(\"cached=yes\")\n  x ]%"),
            "t.tpl:2:3: error: expected '%[' to open the loop body; found 'x'\n"
            "  x ]%\n"
            "  ^\n");
}

TEST(template_engine, error_runaway_expansion_names_the_chain) {
  template_scope scope = kernel_scope();
  scope.values["a"] = "<%{b}>";
  scope.values["b"] = "x%a";
  EXPECT_EQ(error_of("line\n  %a\n", scope),
            "t.tpl:2:3: error: template expansion does not terminate: a -> b -> a\n"
            "  %a\n"
            "  ^\n");
}

TEST(template_engine, error_expansion_deeper_than_the_limit) {
  template_scope scope;
  scope.values = {{"a", "%b"}, {"b", "%c"}, {"c", "%d"}, {"d", "%e"}, {"e", "end"}};
  render_options options = unaligned();
  options.max_expansion_depth = 3;
  EXPECT_EQ(error_of("%a", scope, options),
            "t.tpl:1:1: error: template expansion is deeper than 3 levels: a -> b -> c -> d\n"
            "%a\n"
            "^\n");
  options.max_expansion_depth = 4;
  EXPECT_EQ(render("%a", scope, options), "end");
}

TEST(template_engine, error_unterminated_string_in_loop_arguments) {
  EXPECT_EQ(error_of("%var_loop(\"cached=yes) %[x]%\n"),
            "t.tpl:1:11: error: unterminated string: this '\"' has no closing '\"'; found end of file\n"
            "%var_loop(\"cached=yes) %[x]%\n"
            "          ^\n");
}

TEST(template_engine, error_unknown_for_loop_variable) {
  EXPECT_EQ(error_of("%for_loop(idx,'0','1')%[a[%var(ind)]]%"),
            "t.tpl:1:27: error: unknown for_loop variable 'ind'; did you mean 'idx'?\n"
            "%for_loop(idx,'0','1')%[a[%var(ind)]]%\n"
            "                          ^\n");
  EXPECT_EQ(error_of("x %{var(i)}"),
            "t.tpl:1:3: error: unknown for_loop variable 'i': no for_loop encloses it\n"
            "x %{var(i)}\n"
            "  ^\n");
}

TEST(template_engine, error_malformed_braced_name) {
  EXPECT_EQ(error_of("a %{ 1x }"),
            "t.tpl:1:6: error: expected a name or var(v) after '%{'; found '1x'\n"
            "a %{ 1x }\n"
            "     ^\n");
  EXPECT_EQ(error_of("a %{name"),
            "t.tpl:1:9: error: expected '}' to close '%{'; found end of file\n"
            "a %{name\n"
            "        ^\n");
}

TEST(template_engine, error_for_loop_takes_only_delimit) {
  EXPECT_EQ(error_of("%for_loop(i,'0','1', \"cached=yes\")%[x]%"),
            "t.tpl:1:22: error: for_loop takes no filter \"cached=yes\"; its only option is \"delimit=...\"\n"
            "%for_loop(i,'0','1', \"cached=yes\")%[x]%\n"
            "                     ^\n");
}

TEST(template_engine, error_filter_without_equals) {
  EXPECT_EQ(error_of("%var_loop(\"cached\")%[x]%"),
            "t.tpl:1:11: error: a loop filter reads \"key=value\", not \"cached\"\n"
            "%var_loop(\"cached\")%[x]%\n"
            "          ^\n");
}

TEST(template_engine, error_for_loop_missing_bound) {
  EXPECT_EQ(error_of("%for_loop(i, 0, '3')%[x]%"),
            "t.tpl:1:14: error: expected the lower bound as a quoted expression, like '0'; found '0'\n"
            "%for_loop(i, 0, '3')%[x]%\n"
            "             ^\n");
}

TEST(template_engine, error_inside_a_value_points_at_its_use) {
  template_scope scope = kernel_scope();
  scope.values["cell"] = "%{nam}[%vname]";
  EXPECT_EQ(error_of("%var_loop()%[\n  %cell\n]%", scope),
            "t.tpl:2:3: error: unknown name 'nam'; did you mean 'name' or 'vname'? (expanding cell)\n"
            "  %cell\n"
            "  ^\n");
  scope.values["broken"] = "a %{b";
  EXPECT_EQ(error_of("%broken", scope),
            "t.tpl:1:1: error: the value of 'broken' is not a valid template: expected '}' to close '%{'; found "
            "end of file (at line 1, column 6 of the value)\n"
            "%broken\n"
            "^\n");
}

TEST(template_engine, escaped_user_text_is_never_expanded) {
  // What the generator does with every value read from a thorn's files: a '%' stays a '%'.
  template_scope scope = kernel_scope();
  scope.values["code"] = escape_template_text("src/a%{name}.kernel");
  scope.values["type"] = escape_template_text("*/3dblock|%{nosuch}");
  scope.values["path"] = escape_template_text("a[i]%n %[x]% 100%");
  EXPECT_EQ(render("#include \"%{code}\" // %type %{path}", scope),
            "#include \"src/a%{name}.kernel\" // */3dblock|%{nosuch} a[i]%n %[x]% 100%");
}

/// The project's templates and a thorn Heat whose cakernel.ccl is `cakernel`, generated for OpenMP.
std::vector<generated_file> generate_heat(const std::string& test, const std::string& cakernel,
                                          const std::string& body_path) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("opuntia_template_engine_test_" + test) / "Heat";
  fs::remove_all(dir.parent_path());
  fs::create_directories(dir / "src");
  const std::vector<std::pair<std::string, std::string>> files{
      {"interface.ccl", "implements: heatequation\npublic:\nCCTK_REAL temperature TYPE=GF TIMELEVELS=1 { u } \"t\"\n"},
      {"param.ccl", "restricted:\nCCTK_REAL alpha \"thermal diffusivity\"\n{\n  (0:* :: \"positive\"\n} 1.0\n"},
      {"schedule.ccl", "STORAGE: temperature\nschedule CAKERNEL_Launch_Heat_Update IN CCTK_EVOL\n{\n  LANG: C\n"
                       "  SYNC: temperature\n} \"step\"\n"},
      {"cakernel.ccl", cakernel},
      {body_path, "CAKERNEL_Heat_Update_Begin\nCAKERNEL_Heat_Update_Computations_Begin\n"
                  "  I3D(u_out, 0, 0, 0) = I3D_l(u, 0, 0, 0);\nCAKERNEL_Heat_Update_Computations_End\n"
                  "CAKERNEL_Heat_Update_End\n"}};
  for (const auto& [name, text] : files) std::ofstream(dir / name, std::ios::binary) << text;
  generator_inputs inputs;
  inputs.thorns.push_back(read_thorn(dir));
  inputs.library = inputs.thorns;
  const fs::path templates = fs::path(OPUNTIA_SOURCE_DIR) / "templates";
  inputs.deps_ccl = read_source(templates / "deps.ccl");
  inputs.templates = read_templates(templates);
  inputs.backends = {"openmp"};
  return generate(inputs);
}

TEST(template_engine, descriptor_values_reach_the_output_as_written) {
  // CODE and descriptions hold '%': inserted as text, never expanded as template code.
  const auto files = generate_heat("code_with_percent",
                                   "CCTK_KERNEL Heat_Update TYPE=*/3dblock CODE=\"src/a%{name}%%.kernel\"\n{\n"
                                   "  CCTK_KERNEL_VARIABLE cached=yes intent=separateinout { u } \"100% u, %{x}\"\n"
                                   "  CCTK_KERNEL_PARAMETER { alpha }\n} \"a %{name} kernel\"\n",
                                   "src/a%{name}%%.kernel");
  const auto launcher = std::find_if(files.begin(), files.end(), [](const generated_file& f) {
    return f.path == "Heat/openmp/Heat_Update_3dblock.cpp";
  });
  ASSERT_NE(launcher, files.end());
  EXPECT_NE(launcher->text.find("#include \"src/a%{name}%%.kernel\""), std::string::npos) << launcher->text;
}

TEST(template_engine, mapped_rendering_records_where_each_byte_came_from) {
  std::vector<std::size_t> origins;
  const std::string text = "ab%{name}%%c\r\n%var_loop(\"delimit=,\") %[<%vname>]%";
  const auto out = render_template_mapped(source_file{"t.tpl", text}, kernel_scope(), origins);
  EXPECT_EQ(out, "abheat%c\r\n<u>,<v>,<w>");
  const std::size_t loop = text.find("%var_loop"), body = text.find('<'), vname = text.find("%vname");
  const std::vector<std::size_t> expected{0, 1, 2, 2, 2, 2, 9, 11, 12, 13,   // ab, heat, %, c, CRLF
                                          body, vname, body + 7, loop,      // <u>,
                                          body, vname, body + 7, loop,      // <v>,
                                          body, vname, body + 7};           // <w>
  EXPECT_EQ(origins, expected);
  // A value that expands further maps, whole, to the directive that began the expansion.
  template_scope scope = kernel_scope();
  scope.values["cell"] = "[%{name}]";
  EXPECT_EQ(render_template_mapped(source_file{"t.tpl", "x %cell"}, scope, origins), "x [heat]");
  EXPECT_EQ(origins, (std::vector<std::size_t>{0, 1, 2, 2, 2, 2, 2, 2}));
  // Errors are those of render_template, in the template's places.
  try {
    render_template_mapped(source_file{"t.tpl", "a\n %{nmae}"}, kernel_scope(), origins);
    ADD_FAILURE() << "no error";
  } catch (const input_error& e) {
    EXPECT_EQ(format_diagnostics(e.diagnostics()),
              "t.tpl:2:2: error: unknown name 'nmae'; did you mean 'name'?\n %{nmae}\n ^\n");
  }
}

TEST(template_engine, error_printf_format_needs_escaping) {
  EXPECT_EQ(error_of("printf(\"%d\\n\", n);"),
            "t.tpl:1:9: error: unknown name 'd'; known: name, stencil_zn, stencil_zp, tile_x\n"
            "printf(\"%d\\n\", n);\n"
            "        ^\n");
  EXPECT_EQ(render("printf(\"%%d\\n\", n);"), "printf(\"%d\\n\", n);");
}

// --- limits ---------------------------------------------------------------------------

TEST(template_engine, error_for_loop_with_too_many_iterations) {
  EXPECT_EQ(error_of("%for_loop(i,'0','1000000')%[]%"),
            "t.tpl:1:1: error: for_loop 'i' from 0 to 1000000 would run 1000000 iterations; at most 100000 are "
            "allowed\n"
            "%for_loop(i,'0','1000000')%[]%\n"
            "^\n");
  EXPECT_PRED2(starts_with, error_of("%for_loop(i,'9223372036854775807','-9223372036854775807-1')%[]%"),
               "t.tpl:1:1: error: for_loop 'i' from 9223372036854775807 to -9223372036854775808 would run "
               "18446744073709551615 iterations; at most 100000 are allowed\n");
}

TEST(template_engine, error_when_nested_loops_do_too_much_work) {
  EXPECT_EQ(error_of("%for_loop(i,'0','100000')%[%for_loop(j,'0','100000')%[]%]%"),
            "t.tpl:1:28: error: template expansion is too large: more than 4000000 steps\n"
            "%for_loop(i,'0','100000')%[%for_loop(j,'0','100000')%[]%]%\n"
            "                           ^\n");
}

TEST(template_engine, error_when_output_grows_too_large) {
  const std::string kilobyte(1024, 'x');
  EXPECT_PRED2(starts_with, error_of("%for_loop(i,'0','100000')%[" + kilobyte + "]%"),
               "t.tpl:1:28: error: generated text exceeds 16777216 bytes\n%for_loop(i,'0','100000')%[xxx");
}

TEST(template_engine, error_when_blocks_nest_too_deeply) {
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "%[";
  EXPECT_PRED2(starts_with, error_of(text), "t.tpl:1:513: error: blocks nested deeper than 256 levels\n%[%[");
  std::string loops;
  for (int i = 0; i < 300; ++i) loops += "%for_loop(i,'0','1')%[";
  EXPECT_PRED2(starts_with, error_of(loops), "t.tpl:1:5633: error: blocks nested deeper than 256 levels\n%for_loop(");
}

TEST(template_engine, blocks_nest_256_levels_deep) {
  std::string text;
  for (int i = 0; i < 256; ++i) text += "%[";
  text += "x";
  for (int i = 0; i < 256; ++i) text += "]%";
  EXPECT_EQ(render(text, template_scope{}), "x");
}

TEST(template_engine, error_integer_overflow_in_bound) {
  EXPECT_EQ(error_of("%for_loop(i,'9223372036854775807+1','0')%[]%"),
            "t.tpl:1:1: error: bad lower bound '9223372036854775807+1' of for_loop 'i': integer overflow\n"
            "%for_loop(i,'9223372036854775807+1','0')%[]%\n"
            "^\n");
}

}  // namespace
}  // namespace opuntia::gen
