#include "ccl/source_file.hpp"

#include <algorithm>

namespace opuntia::ccl {

std::string source_file::line_text(std::size_t line) const {
  if (line == 0) return {};
  std::size_t begin = 0;
  for (std::size_t current = 1; current < line; ++current) {
    begin = text.find('\n', begin);
    if (begin == std::string::npos) return {};
    ++begin;
  }
  std::size_t end = text.find('\n', begin);
  if (end == std::string::npos) end = text.size();
  if (end > begin && text[end - 1] == '\r') --end;
  return text.substr(begin, end - begin);
}

source_location source_file::location_of(std::size_t offset) const {
  if (!written_at.empty()) return written_at[std::min(offset, written_at.size() - 1)];
  source_location where{path, 1, 1};
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++where.line;
      where.column = 1;
    } else {
      ++where.column;
    }
  }
  return where;
}

source_location source_file::place_of(std::size_t line, std::size_t column) const {
  if (written_at.empty() || line == 0) return source_location{path, line, column};
  std::size_t offset = 0;
  for (std::size_t l = 1; l < line && offset < text.size(); ++l) {
    const auto newline = text.find('\n', offset);
    offset = newline == std::string::npos ? text.size() : newline + 1;
  }
  return location_of(offset + (column > 0 ? column - 1 : 0));
}

diagnostic source_file::error_at(std::size_t line, std::size_t column, std::string message) const {
  const auto where = place_of(line, column);
  return diagnostic{where, std::move(message), written_at.empty() ? line_text(line) : std::string()};
}

diagnostic source_file::error_at_offset(std::size_t offset, std::string message) const {
  const auto where = location_of(offset);
  return diagnostic{where, std::move(message), written_at.empty() ? line_text(where.line) : std::string()};
}

void fill_line_texts(std::vector<diagnostic>& diagnostics, const std::vector<const source_file*>& files) {
  for (auto& d : diagnostics) {
    if (!d.line_text.empty() || d.where.line == 0) continue;
    for (const auto* f : files) {
      if (f->path == d.where.path) {
        d.line_text = f->line_text(d.where.line);
        break;
      }
    }
  }
}

diagnostic error_at(const source_file& file, const source_location& where, std::string message) {
  diagnostic d{where, std::move(message), {}};
  if (where.path == file.path) d.line_text = file.line_text(where.line);
  return d;
}

}  // namespace opuntia::ccl
