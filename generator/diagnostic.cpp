#include "generator/diagnostic.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace opuntia::gen {

std::string format_diagnostic(const diagnostic& d) {
  std::string out;
  if (d.where.line == 0) {
    out = fmt::format("{}: error: {}\n", d.where.path, d.message);
    return out;
  }
  out = fmt::format("{}:{}:{}: error: {}\n", d.where.path, d.where.line, d.where.column, d.message);
  if (!d.line_text.empty() || d.where.column == 1) {
    out += d.line_text;
    out += '\n';
    // Keep tabs so the caret lines up with what a terminal shows for the line above.
    std::string caret;
    for (std::size_t i = 0; i + 1 < d.where.column && i < d.line_text.size(); ++i) {
      caret += d.line_text[i] == '\t' ? '\t' : ' ';
    }
    for (std::size_t i = d.line_text.size(); i + 1 < d.where.column; ++i) caret += ' ';
    out += caret + "^\n";
  }
  return out;
}

std::string format_diagnostics(const std::vector<diagnostic>& ds) {
  std::string out;
  for (const auto& d : ds) out += format_diagnostic(d);
  return out;
}

namespace {
std::string first_message(const std::vector<diagnostic>& ds) {
  return ds.empty() ? std::string("generator error") : format_diagnostic(ds.front());
}
}  // namespace

generator_error::generator_error(std::vector<diagnostic> diagnostics)
    : std::runtime_error(first_message(diagnostics)), diagnostics_(std::move(diagnostics)) {}

generator_error::generator_error(diagnostic d) : generator_error(std::vector<diagnostic>{std::move(d)}) {}

diagnostic whole_file_error(std::string path, std::string message) {
  diagnostic d;
  d.where.path = std::move(path);
  d.message = std::move(message);
  return d;
}

diagnostic error_at(source_location where, std::string message) {
  diagnostic d;
  d.where = std::move(where);
  d.message = std::move(message);
  return d;
}

void diagnostic_sink::throw_if_any() {
  if (!diagnostics_.empty()) throw generator_error(std::move(diagnostics_));
}

namespace {
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}
}  // namespace

std::vector<std::string> nearest_names(std::string_view name, const std::vector<std::string>& candidates,
                                       std::size_t limit) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  // Allow roughly one edit per three characters: close enough to be a typo.
  const std::size_t threshold = std::max<std::size_t>(2, name.size() / 3);
  for (const auto& candidate : candidates) {
    const std::size_t d = edit_distance(name, candidate);
    if (d <= threshold) scored.emplace_back(d, candidate);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (auto& [d, candidate] : scored) {
    if (out.size() == limit) break;
    if (std::find(out.begin(), out.end(), candidate) == out.end()) out.push_back(candidate);
  }
  return out;
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  const auto near = nearest_names(name, candidates);
  if (near.empty()) return {};
  std::string out = "; did you mean ";
  for (std::size_t i = 0; i < near.size(); ++i) {
    if (i > 0) out += i + 1 == near.size() ? " or " : ", ";
    out += "'" + near[i] + "'";
  }
  return out + "?";
}

std::string join_names(const std::vector<std::string>& names, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += separator;
    out += names[i];
  }
  return out;
}

}  // namespace opuntia::gen
