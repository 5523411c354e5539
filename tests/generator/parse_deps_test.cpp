#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "ccl/parse.hpp"
#include "generator/semantic/template_tree.hpp"
#include "tests/ccl/parse_test_support.hpp"

namespace opuntia::gen {
namespace {

using ccl::test::repeated;

std::string read_file(const std::string& path) {
  std::ifstream in(std::string(OPUNTIA_SOURCE_DIR) + "/" + path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string error_text(const std::string& text) {
  try {
    build_template_tree(parse_deps_ccl(source_file{"deps.ccl", text}));
  } catch (const input_error& e) {
    auto ds = e.diagnostics();
    const source_file file{"deps.ccl", text};
    fill_line_texts(ds, {&file});
    return format_diagnostics(ds);
  }
  return "no error";
}

TEST(parse_deps, reads_the_cacuda_fixture) {
  const auto deps = parse_deps_ccl(source_file{"deps.ccl", read_file("tests/fixtures/cacuda/deps.ccl")});
  ASSERT_EQ(deps.groups.size(), 1u);
  const auto& group = deps.groups[0];
  EXPECT_EQ(group.name.text, "gpu_cuda");
  ASSERT_EQ(group.templates.size(), 10u);
  EXPECT_EQ(group.templates[0].name.text, "vars");
  EXPECT_EQ(group.templates[0].description, "a template that defines the neccesary variables");
  const auto& comm = group.templates[1];
  ASSERT_EQ(comm.schedules.size(), 1u);
  EXPECT_EQ(comm.schedules[0].text,
            "schedule CaCUDA_CopyToDev in CaCUDA_AllocMem after CaCUDA_AllocDevMem\n      {\n          LANG: C\n"
            "      }\"Allocate memory for variables on devices\"");
  EXPECT_EQ(comm.schedules[0].where, (source_location{"deps.ccl", 22, 7}));
  const auto& block = group.templates[3];
  EXPECT_EQ(block.name.text, "3dblock");
  ASSERT_EQ(block.triggers.size(), 5u);
  EXPECT_EQ(block.triggers[4].text, "3dblock$comp");
}

TEST(template_tree, resolves_the_cacuda_fixture) {
  const auto tree = build_template_tree(parse_deps_ccl(source_file{"deps.ccl", read_file("tests/fixtures/cacuda/deps.ccl")}));
  EXPECT_EQ(tree.backends, (std::vector<std::string>{"gpu_cuda"}));
  const auto roots = tree.match("*/3dblock", "gpu_cuda");
  ASSERT_EQ(roots.size(), 1u);
  EXPECT_EQ(tree.templates[roots[0]].file, "gpu_cuda/cacuda.3dblock-template.h");
  std::vector<std::string> reached;
  for (const auto i : tree.closure(roots)) reached.push_back(tree.templates[i].name);
  EXPECT_EQ(reached, (std::vector<std::string>{"3dblock", "vars", "comm", "mem", "code", "3dblock$comp"}));
  const auto& code = tree.templates[tree.match("code", "gpu_cuda")[0]];
  EXPECT_FALSE(code.replace);
  // Helpers ($suffix, or thorn-wide) are reached through triggers only, never by a TYPE.
  EXPECT_TRUE(tree.match("3dblock$comp", "gpu_cuda").empty());
  EXPECT_TRUE(tree.match("vars", "gpu_cuda").empty());
  std::vector<std::string> everything;
  for (const auto i : tree.match("*", "gpu_cuda")) everything.push_back(tree.templates[i].name);
  EXPECT_EQ(everything, (std::vector<std::string>{"3dblock", "3dstencil", "boundary", "code"}));
  const auto comp = std::find_if(tree.templates.begin(), tree.templates.end(), [](const auto& t) { return t.name == "3dblock$comp"; });
  ASSERT_NE(comp, tree.templates.end());
  EXPECT_EQ(comp->stem, "3dblock");
}

TEST(template_tree, matches_type_patterns) {
  const auto tree = build_template_tree(parse_deps_ccl(source_file{"deps.ccl", R"(
CCTK_KERNEL_TEMPLATE_GROUP openmp {
  CCTK_KERNEL_TEMPLATE 3dblock file="a" {}
  CCTK_KERNEL_TEMPLATE 3dblock_vvl file="b" {}
  CCTK_KERNEL_TEMPLATE 3dstencil file="c" {}
  CCTK_KERNEL_TEMPLATE_GROUP tuned { CCTK_KERNEL_TEMPLATE 3dblock file="d" {} }
}
CCTK_KERNEL_TEMPLATE_GROUP cuda { CCTK_KERNEL_TEMPLATE 3dblock file="e" {} }
)"}));
  const auto files = [&](const std::string& pattern, const std::string& backend) {
    std::vector<std::string> out;
    for (const auto i : tree.match(pattern, backend)) out.push_back(tree.templates[i].file);
    return out;
  };
  EXPECT_EQ(files("*/3dblock", "openmp"), (std::vector<std::string>{"openmp/a"}));
  EXPECT_EQ(files("3DBLOCK", "openmp"), (std::vector<std::string>{"openmp/a", "openmp/tuned/d"}));
  EXPECT_EQ(files("*/3dblock|3dstencil", "openmp"), (std::vector<std::string>{"openmp/a", "openmp/c"}));
  // In the order of the name's alternatives, each one's matches in deps.ccl order.
  EXPECT_EQ(files("*/3dstencil|3dblock", "openmp"), (std::vector<std::string>{"openmp/c", "openmp/a"}));
  EXPECT_EQ(files("3dstencil|3dblock*", "openmp"),
            (std::vector<std::string>{"openmp/c", "openmp/a", "openmp/b", "openmp/tuned/d"}));
  EXPECT_EQ(files("3dblock*|3dblock_vvl|3dstencil", "openmp"),
            (std::vector<std::string>{"openmp/a", "openmp/b", "openmp/tuned/d", "openmp/c"}));
  EXPECT_EQ(files("*/3dblock*", "openmp"), (std::vector<std::string>{"openmp/a", "openmp/b"}));
  EXPECT_EQ(files("openmp/tuned/3dblock", "openmp"), (std::vector<std::string>{"openmp/tuned/d"}));
  EXPECT_EQ(files("cuda|opencl/3dblock", "openmp"), (std::vector<std::string>{}));
  EXPECT_EQ(files("cuda|opencl/3dblock", "cuda"), (std::vector<std::string>{"cuda/e"}));
  EXPECT_EQ(files("*3*d*b*", "openmp"), (std::vector<std::string>{"openmp/a", "openmp/b", "openmp/tuned/d"}));
  EXPECT_EQ(files("3dblock**", "cuda"), (std::vector<std::string>{"cuda/e"}));
}

TEST(template_tree, globs_do_not_backtrack_exponentially) {
  // The recursive glob took time exponential in the stars of a TYPE that almost matches.
  const auto tree = build_template_tree(parse_deps_ccl(source_file{
      "deps.ccl", "CCTK_KERNEL_TEMPLATE_GROUP g { CCTK_KERNEL_TEMPLATE " + repeated("a", 200) + " file=\"a\" {} }"}));
  EXPECT_TRUE(tree.match(repeated("*a", 40) + "*b", "g").empty());
  EXPECT_EQ(tree.match(repeated("*a", 40) + "*", "g").size(), 1u);
}

TEST(template_tree, a_chain_of_100000_triggers_is_followed_without_recursion) {
  std::string text = "CCTK_KERNEL_TEMPLATE_GROUP g {\n";
  const int count = 100000;
  for (int i = 0; i < count; ++i) {
    text += "CCTK_KERNEL_TEMPLATE t" + std::to_string(i) + " file=\"t\" { ";
    if (i + 1 < count) text += (i % 2 == 0 ? "triggers { t" : "include { t") + std::to_string(i + 1) + " }";
    text += " }\n";
  }
  const auto tree = build_template_tree(parse_deps_ccl(source_file{"deps.ccl", text + "}\n"}));
  const auto reached = tree.closure({0});
  ASSERT_EQ(reached.size(), static_cast<std::size_t>(count));
  EXPECT_EQ(tree.templates[reached.back()].name, "t99999");
}

TEST(parse_deps, empty_file_has_no_groups) {
  EXPECT_TRUE(parse_deps_ccl(source_file{"deps.ccl", ""}).groups.empty());
}

TEST(parse_deps, error_trigger_cycle) {
  EXPECT_EQ(error_text("CCTK_KERNEL_TEMPLATE_GROUP g {\n"
                       "  CCTK_KERNEL_TEMPLATE a file=\"a\" { triggers { b } }\n"
                       "  CCTK_KERNEL_TEMPLATE b file=\"b\" { triggers { c } }\n"
                       "  CCTK_KERNEL_TEMPLATE c file=\"c\" { triggers { a } }\n"
                       "}\n"),
            "deps.ccl:2:24: error: trigger cycle: a -> b -> c -> a\n"
            "  CCTK_KERNEL_TEMPLATE a file=\"a\" { triggers { b } }\n"
            "                       ^\n");
}

TEST(parse_deps, error_include_cycle) {
  EXPECT_EQ(error_text("CCTK_KERNEL_TEMPLATE_GROUP g {\n"
                       "  CCTK_KERNEL_TEMPLATE a file=\"a\" { include { b } }\n"
                       "  CCTK_KERNEL_TEMPLATE b file=\"b\" { include { c } }\n"
                       "  CCTK_KERNEL_TEMPLATE c file=\"c\" { include { a } }\n"
                       "}\n"),
            "deps.ccl:4:47: error: include cycle: a -> b -> c -> a\n"
            "  CCTK_KERNEL_TEMPLATE c file=\"c\" { include { a } }\n"
            "                                              ^\n");
  EXPECT_EQ(error_text("CCTK_KERNEL_TEMPLATE_GROUP g { CCTK_KERNEL_TEMPLATE a file=\"a\" { include { a } } }\n"),
            "deps.ccl:1:76: error: include cycle: a -> a\n"
            "CCTK_KERNEL_TEMPLATE_GROUP g { CCTK_KERNEL_TEMPLATE a file=\"a\" { include { a } } }\n"
            "                                                                           ^\n");
}

TEST(parse_deps, a_trigger_and_an_include_back_is_no_cycle) {
  EXPECT_EQ(error_text("CCTK_KERNEL_TEMPLATE_GROUP g {\n"
                       "  CCTK_KERNEL_TEMPLATE a file=\"a\" { triggers { a$launcher } }\n"
                       "  CCTK_KERNEL_TEMPLATE a$launcher file=\"b\" { include { a } }\n"
                       "}\n"),
            "no error");
}

TEST(parse_deps, error_unknown_trigger_suggests_a_name) {
  EXPECT_EQ(error_text("CCTK_KERNEL_TEMPLATE_GROUP g {\n"
                       "  CCTK_KERNEL_TEMPLATE 3dblock file=\"a\" { triggers { 3dblock$cmp } }\n"
                       "  CCTK_KERNEL_TEMPLATE 3dblock$comp file=\"b\" {}\n"
                       "}\n"),
            "deps.ccl:2:54: error: unknown template '3dblock$cmp' in the triggers of '3dblock'; did you mean "
            "'3dblock$comp'?\n"
            "  CCTK_KERNEL_TEMPLATE 3dblock file=\"a\" { triggers { 3dblock$cmp } }\n"
            "                                                     ^\n");
}

TEST(parse_deps, error_unknown_template_key) {
  EXPECT_EQ(error_text("CCTK_KERNEL_TEMPLATE_GROUP g {\n  CCTK_KERNEL_TEMPLATE a file=\"a\" scop=file {}\n}\n"),
            "deps.ccl:2:35: error: unknown template key 'scop'; did you mean 'scope'?; known keys: scope, compile, "
            "file, replace, auto\n"
            "  CCTK_KERNEL_TEMPLATE a file=\"a\" scop=file {}\n"
            "                                  ^\n");
}

TEST(parse_deps, error_bad_scope_value) {
  EXPECT_EQ(error_text("CCTK_KERNEL_TEMPLATE_GROUP g { CCTK_KERNEL_TEMPLATE a file=a scope=kernel {} }\n"),
            "deps.ccl:1:68: error: scope must be 'file' or 'group', not 'kernel'\n"
            "CCTK_KERNEL_TEMPLATE_GROUP g { CCTK_KERNEL_TEMPLATE a file=a scope=kernel {} }\n"
            "                                                                   ^\n");
}

TEST(parse_deps, error_unterminated_group) {
  EXPECT_EQ(error_text("CCTK_KERNEL_TEMPLATE_GROUP g\n{\n  CCTK_KERNEL_TEMPLATE a file=a {}\n"),
            "deps.ccl:3:35: error: expected CCTK_KERNEL_TEMPLATE, CCTK_KERNEL_TEMPLATE_GROUP or '}' to close the "
            "group opened at line 2, column 1; found end of file\n"
            "  CCTK_KERNEL_TEMPLATE a file=a {}\n"
            "                                  ^\n");
}

TEST(parse_deps, error_unknown_block_in_template) {
  EXPECT_EQ(error_text("CCTK_KERNEL_TEMPLATE_GROUP g {\n  CCTK_KERNEL_TEMPLATE a file=a { trigger { b } }\n}\n"),
            "deps.ccl:2:35: error: expected triggers, schedule, include or '}' to close the template opened at "
            "line 2, column 33; found 'trigger'\n"
            "  CCTK_KERNEL_TEMPLATE a file=a { trigger { b } }\n"
            "                                  ^\n");
}

TEST(parse_deps, error_schedule_block_needs_strings) {
  EXPECT_EQ(error_text("CCTK_KERNEL_TEMPLATE_GROUP g {\n  CCTK_KERNEL_TEMPLATE a file=a { schedule { LANG: C } }\n}\n"),
            "deps.ccl:2:46: error: expected a quoted schedule string or '}' to close the schedule block opened at "
            "line 2, column 44; found 'LANG'\n"
            "  CCTK_KERNEL_TEMPLATE a file=a { schedule { LANG: C } }\n"
            "                                             ^\n");
}

TEST(parse_deps, error_template_without_file) {
  EXPECT_EQ(error_text("CCTK_KERNEL_TEMPLATE_GROUP g { CCTK_KERNEL_TEMPLATE a scope=file {} }"),
            "deps.ccl:1:53: error: template 'a' has no file=\"...\"\n"
            "CCTK_KERNEL_TEMPLATE_GROUP g { CCTK_KERNEL_TEMPLATE a scope=file {} }\n"
            "                                                    ^\n");
}

TEST(parse_deps, groups_nest_256_levels_deep) {
  EXPECT_EQ(error_text(repeated("CCTK_KERNEL_TEMPLATE_GROUP g {\n", 256) + repeated("}\n", 256)), "no error");
}

TEST(parse_deps, error_groups_nested_too_deeply) {
  EXPECT_EQ(error_text(repeated("CCTK_KERNEL_TEMPLATE_GROUP g {\n", 100000)),
            "deps.ccl:257:1: error: template groups nested deeper than 256 levels\n"
            "CCTK_KERNEL_TEMPLATE_GROUP g {\n"
            "^\n");
}

/// The places of the bytes of each schedule string of the only template, as "line:column" each.
std::vector<std::string> schedule_places(const std::string& text) {
  const auto deps = parse_deps_ccl(source_file{"deps.ccl", text});
  std::vector<std::string> out;
  for (const auto& s : deps.groups.at(0).templates.at(0).schedules) {
    EXPECT_EQ(s.places.size(), s.text.size() + 1) << s.text;
    std::string places;
    for (const auto& p : s.places) places += std::to_string(p.line) + ":" + std::to_string(p.column) + " ";
    out.push_back(places);
  }
  return out;
}

TEST(parse_deps, schedule_strings_know_where_each_byte_was_written) {
  // Escapes are one byte at their backslash; the closing quote ends the list.
  const std::string lf = "CCTK_KERNEL_TEMPLATE_GROUP g {\n CCTK_KERNEL_TEMPLATE a file=a {\n"
                         "  schedule { \"a\\nb\\\"c\" \"x\n y\" }\n}\n}\n";
  const auto deps = parse_deps_ccl(source_file{"deps.ccl", lf});
  const auto& strings = deps.groups[0].templates[0].schedules;
  ASSERT_EQ(strings.size(), 2u);
  EXPECT_EQ(strings[0].text, "a\nb\"c");
  EXPECT_EQ(strings[0].where, (source_location{"deps.ccl", 3, 14}));
  EXPECT_EQ(strings[1].text, "x\n y");
  EXPECT_EQ(schedule_places(lf),
            (std::vector<std::string>{"3:15 3:16 3:18 3:19 3:21 3:22 ", "3:25 3:26 4:1 4:2 4:3 "}));
  // The same in a CRLF file: the CR of a line break inside the string is no byte of the text,
  // and columns on the next line start again at 1.
  std::string crlf;
  for (const char c : lf) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  EXPECT_EQ(schedule_places(crlf),
            (std::vector<std::string>{"3:15 3:16 3:18 3:19 3:21 3:22 ", "3:25 3:26 4:1 4:2 4:3 "}));
}

TEST(template_tree, keeps_the_place_of_each_file_value) {
  const auto tree = build_template_tree(parse_deps_ccl(
      source_file{"deps.ccl", "CCTK_KERNEL_TEMPLATE_GROUP g {\n CCTK_KERNEL_TEMPLATE a\n  file=\"../shared/a.tpl\" {}\n}\n"}));
  ASSERT_EQ(tree.templates.size(), 1u);
  EXPECT_EQ(tree.templates[0].file, "shared/a.tpl");
  EXPECT_EQ(tree.templates[0].file_as_written.text, "../shared/a.tpl");
  EXPECT_EQ(tree.templates[0].file_as_written.where, (source_location{"deps.ccl", 3, 8}));
}

TEST(template_tree, match_name_finds_a_template_in_any_backend) {
  const auto tree = build_template_tree(parse_deps_ccl(source_file{
      "deps.ccl", "CCTK_KERNEL_TEMPLATE_GROUP openmp { CCTK_KERNEL_TEMPLATE b file=b {} }\n"
                  "CCTK_KERNEL_TEMPLATE_GROUP cuda { CCTK_KERNEL_TEMPLATE b file=b {} CCTK_KERNEL_TEMPLATE u file=u {}\n"
                  "  CCTK_KERNEL_TEMPLATE u$launcher file=u {} }\n"}));
  EXPECT_TRUE(tree.match("openmp/u", "openmp").empty());
  EXPECT_EQ(tree.match_name("openmp/u"), (std::vector<std::size_t>{2}));  // u$launcher is no kernel template
  EXPECT_EQ(tree.match_name("*/B|x*"), (std::vector<std::size_t>{0, 1}));
  EXPECT_TRUE(tree.match_name("openmp/nothing").empty());
}

TEST(parse_deps, a_key_given_twice_is_an_error) {
  EXPECT_EQ(error_text("CCTK_KERNEL_TEMPLATE_GROUP openmp { CCTK_KERNEL_TEMPLATE b scope=file scope=group file=b {} }\n"),
            "deps.ccl:1:71: error: scope is given twice: first at line 1, column 60\n"
            "CCTK_KERNEL_TEMPLATE_GROUP openmp { CCTK_KERNEL_TEMPLATE b scope=file scope=group file=b {} }\n"
            "                                                                      ^\n");
}

}  // namespace
}  // namespace opuntia::gen
