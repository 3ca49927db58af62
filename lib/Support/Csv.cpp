//===- Csv.cpp - MiniMalloc CSV input and output --------------------------===//

#include "mplan/Support/Csv.h"

#include "mplan/Support/CheckedMath.h"

#include <charconv>
#include <fstream>
#include <sstream>
#include <unordered_map>

using namespace mplan;

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::vector<std::string> splitFields(std::string_view line) {
  std::vector<std::string> fields;
  size_t pos = 0;
  while (true) {
    size_t comma = line.find(',', pos);
    std::string_view field = line.substr(pos, comma == std::string_view::npos
                                                  ? std::string_view::npos
                                                  : comma - pos);
    fields.emplace_back(trim(field));
    if (comma == std::string_view::npos)
      break;
    pos = comma + 1;
  }
  return fields;
}

/// `field` as it may appear in a one-line message: bytes outside printable
/// ASCII (NUL, control characters, invalid UTF-8) become \xNN, and long
/// fields are cut.
std::string printable(std::string_view field) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    if (out.size() >= 64) {
      out += "...";
      break;
    }
    unsigned char c = static_cast<unsigned char>(field[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

Error lineError(size_t line, const std::string &msg) {
  return Error{"line " + std::to_string(line) + ": " + msg};
}

} // namespace

Expected<CsvTable> mplan::parseBufferCsv(std::string_view text) {
  CsvTable table;
  // Tolerate a UTF-8 byte order mark (it can only start the file).
  if (text.substr(0, 3) == "\xEF\xBB\xBF")
    text.remove_prefix(3);
  // Split into lines, remembering 1-based line numbers.
  std::vector<std::pair<size_t, std::string_view>> lines;
  size_t lineNo = 0, pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(
        pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    ++lineNo;
    if (!trim(line).empty())
      lines.emplace_back(lineNo, trim(line));
    if (nl == std::string_view::npos)
      break;
    pos = nl + 1;
  }
  if (lines.empty())
    return lineError(1, "empty input: expected a header naming id, lower, "
                        "upper and size");

  size_t headerLine = lines.front().first;
  std::string_view headerText = lines.front().second;
  // A second byte order mark would name the first column: the writer could
  // not write that header back (the reader strips the mark at the start).
  if (headerText.substr(0, 3) == "\xEF\xBB\xBF")
    return lineError(headerLine, "a second byte order mark starts the header");
  table.header = splitFields(headerText);
  std::unordered_map<std::string, size_t> column;
  for (size_t c = 0; c < table.header.size(); ++c) {
    if (table.header[c].empty())
      return lineError(headerLine, "empty column name in the header");
    if (!column.emplace(table.header[c], c).second)
      return lineError(headerLine,
                       "duplicate column '" + printable(table.header[c]) + "'");
  }
  const char *required[] = {"id", "lower", "upper", "size"};
  size_t col[4];
  for (int k = 0; k < 4; ++k) {
    auto it = column.find(required[k]);
    if (it == column.end())
      return lineError(headerLine, std::string("missing column '") +
                                       required[k] +
                                       "' (the header must name id, lower, "
                                       "upper and size)");
    col[k] = it->second;
  }
  auto alignIt = column.find("alignment");

  std::unordered_map<int64_t, size_t> idLine;
  for (size_t r = 1; r < lines.size(); ++r) {
    size_t line = lines[r].first;
    std::string_view content = lines[r].second;
    std::vector<std::string> fields = splitFields(content);
    if (fields.size() != table.header.size())
      return lineError(line, "expected " + std::to_string(table.header.size()) +
                                 " fields, found " +
                                 std::to_string(fields.size()));
    auto parse = [&](size_t c, int64_t &out) -> std::optional<Error> {
      const std::string &f = fields[c];
      const char *b = f.data(), *e = f.data() + f.size();
      if (!f.empty() && *b == '+')
        ++b;
      auto [ptr, ec] = std::from_chars(b, e, out);
      if (f.empty() || ec == std::errc::invalid_argument || ptr != e || b == e)
        return lineError(line, "column '" + table.header[c] + "': '" +
                                   printable(f) + "' is not an integer");
      if (ec == std::errc::result_out_of_range)
        return lineError(line, "column '" + table.header[c] +
                                   "': " + printable(f) +
                                   " is out of range for a 64-bit integer");
      return std::nullopt;
    };
    Buffer buf;
    int64_t *dst[4] = {&buf.id, &buf.start, &buf.end, &buf.size};
    for (int k = 0; k < 4; ++k)
      if (std::optional<Error> err = parse(col[k], *dst[k]))
        return *err;
    if (alignIt != column.end())
      if (std::optional<Error> err = parse(alignIt->second, buf.alignment))
        return *err;
    if (buf.start < 0)
      return lineError(line, "lower (" + std::to_string(buf.start) +
                                 ") must be non-negative");
    if (buf.size < 0)
      return lineError(line, "size (" + std::to_string(buf.size) +
                                 ") must be non-negative");
    if (buf.end <= buf.start)
      return lineError(line, "upper (" + std::to_string(buf.end) +
                                 ") must be greater than lower (" +
                                 std::to_string(buf.start) + ")");
    if (!isPowerOf2(buf.alignment))
      return lineError(line, "alignment (" + std::to_string(buf.alignment) +
                                 ") must be a power of two");
    auto [it, inserted] = idLine.emplace(buf.id, line);
    if (!inserted)
      return lineError(line, "duplicate id " + std::to_string(buf.id) +
                                 " (first on line " +
                                 std::to_string(it->second) + ")");
    table.rows.push_back(std::move(fields));
    table.buffers.push_back(buf);
    table.lines.push_back(line);
  }
  return table;
}

Expected<CsvTable> mplan::readBufferCsvFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Error{path + ": cannot open file"};
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad())
    return Error{path + ": read error"};
  Expected<CsvTable> table = parseBufferCsv(ss.str());
  if (!table)
    return Error{path + ": " + table.error()};
  return table;
}

std::string mplan::writeBufferCsv(const CsvTable &table,
                                  const std::vector<int64_t> &offsets) {
  size_t offsetCol = table.header.size();
  for (size_t c = 0; c < table.header.size(); ++c)
    if (table.header[c] == "offset")
      offsetCol = c;
  std::string out;
  auto emitRow = [&](const std::vector<std::string> &fields,
                     const std::string &offset) {
    for (size_t c = 0; c < fields.size(); ++c) {
      if (c)
        out += ',';
      out += c == offsetCol ? offset : fields[c];
    }
    if (offsetCol == fields.size()) {
      if (!fields.empty())
        out += ',';
      out += offset;
    }
    out += '\n';
  };
  emitRow(table.header, "offset");
  for (size_t r = 0; r < table.rows.size(); ++r)
    emitRow(table.rows[r], std::to_string(offsets[r]));
  return out;
}

std::string mplan::writeBufferCsv(const std::vector<Buffer> &buffers,
                                  const std::vector<int64_t> *offsets) {
  bool withAlign = false;
  for (const Buffer &b : buffers)
    withAlign |= b.alignment != 1;
  std::string out = "id,lower,upper,size";
  if (withAlign)
    out += ",alignment";
  if (offsets)
    out += ",offset";
  out += '\n';
  for (size_t i = 0; i < buffers.size(); ++i) {
    const Buffer &b = buffers[i];
    out += std::to_string(b.id) + ',' + std::to_string(b.start) + ',' +
           std::to_string(b.end) + ',' + std::to_string(b.size);
    if (withAlign)
      out += ',' + std::to_string(b.alignment);
    if (offsets)
      out += ',' + std::to_string((*offsets)[i]);
    out += '\n';
  }
  return out;
}
