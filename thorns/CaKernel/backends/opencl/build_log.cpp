#include "build_log.hpp"

#include <regex>
#include <set>
#include <sstream>
#include <vector>

namespace opuntia::thorns::CaKernel::opencl_build_log {
namespace {

/// A `#line N "file"` directive on line `at` (1-based) of the source: line at + 1 is N of file.
struct line_directive {
  long at;
  long first_line;
  std::string file;
};

std::vector<line_directive> directives_of(const std::string& source) {
  static const std::regex directive(R"(^\s*#\s*line\s+(\d+)\s+"([^"]*)\"\s*$)");
  std::vector<line_directive> found;
  std::istringstream lines(source);
  std::string line;
  for (long number = 1; std::getline(lines, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::smatch match;
    if (std::regex_match(line, match, directive)) found.push_back({number, std::stol(match[1]), match[2]});
  }
  return found;
}

}  // namespace

std::string with_body_lines(const std::string& log, const std::string& source) {
  const auto directives = directives_of(source);
  if (directives.empty()) return log;
  std::set<std::string> named;
  for (const auto& d : directives) named.insert(d.file);
  // name:line:column: at the start of a log line or after a blank.
  static const std::regex position(R"((^|[ \t])([^ \t\n:]+):(\d+):(\d+):)");
  std::string mapped;
  auto rest = log.cbegin();
  for (std::sregex_iterator it(log.begin(), log.end(), position), end; it != end; ++it) {
    const auto& match = *it;
    mapped.append(rest, match[0].first);
    rest = match[0].second;
    const long line = std::stol(match[3]);
    const line_directive* governing = nullptr;
    for (const auto& d : directives) {
      if (d.at < line) governing = &d;
    }
    if (named.count(match[2]) != 0 || governing == nullptr) {
      mapped.append(match[0].first, match[0].second);
      continue;
    }
    mapped += match[1].str() + governing->file + ':' + std::to_string(governing->first_line + (line - governing->at - 1)) +
              ':' + match[4].str() + ':';
  }
  mapped.append(rest, log.cend());
  return mapped;
}

}  // namespace opuntia::thorns::CaKernel::opencl_build_log
