//===- Csv.cpp - MiniMalloc CSV input and output --------------------------===//

#include "mplan/Support/Csv.h"

#include "mplan/Support/CheckedMath.h"

#include "PlannerImpl.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
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

/// The trimmed fields of `line`, split at commas, into `fields`.
void splitFields(std::string_view line, std::vector<std::string_view> &fields) {
  fields.clear();
  size_t pos = 0;
  while (true) {
    size_t comma = line.find(',', pos);
    fields.push_back(trim(line.substr(pos, comma == std::string_view::npos
                                               ? std::string_view::npos
                                               : comma - pos)));
    if (comma == std::string_view::npos)
      break;
    pos = comma + 1;
  }
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

std::vector<std::string_view> CsvTable::fields(size_t r) const {
  std::vector<std::string_view> out;
  splitFields(rowText(r), out);
  return out;
}

void CsvTable::appendRow(const std::vector<std::string_view> &fields) {
  for (size_t c = 0; c < fields.size(); ++c) {
    if (c)
      text += ',';
    text += fields[c];
  }
  rowEnd.push_back(text.size());
}

std::optional<std::string> mplan::checkBufferFields(const Buffer &buf) {
  if (buf.start < 0)
    return "lower (" + std::to_string(buf.start) + ") must be non-negative";
  if (buf.size < 0)
    return "size (" + std::to_string(buf.size) + ") must be non-negative";
  if (buf.end <= buf.start)
    return "upper (" + std::to_string(buf.end) +
           ") must be greater than lower (" + std::to_string(buf.start) + ")";
  if (!isPowerOf2(buf.alignment))
    return "alignment (" + std::to_string(buf.alignment) +
           ") must be a power of two";
  return std::nullopt;
}

Expected<CsvTable> mplan::parseBufferCsv(std::string_view text) {
  CsvTable table;
  // Tolerate a UTF-8 byte order mark (it can only start the file).
  if (text.substr(0, 3) == "\xEF\xBB\xBF")
    text.remove_prefix(3);
  // The next non-blank line (trimmed) and its 1-based number; false at the
  // end of the text.
  size_t lineNo = 0, pos = 0;
  bool atEnd = false;
  auto nextLine = [&](size_t &number, std::string_view &line) {
    while (!atEnd) {
      size_t nl = text.find('\n', pos);
      line = trim(text.substr(pos, nl == std::string_view::npos
                                       ? std::string_view::npos
                                       : nl - pos));
      ++lineNo;
      if (nl == std::string_view::npos)
        atEnd = true;
      else
        pos = nl + 1;
      if (!line.empty()) {
        number = lineNo;
        return true;
      }
    }
    return false;
  };
  size_t headerLine;
  std::string_view headerText;
  if (!nextLine(headerLine, headerText))
    return lineError(1, "empty input: expected a header naming id, lower, "
                        "upper and size");
  // A second byte order mark would name the first column: the writer could
  // not write that header back (the reader strips the mark at the start).
  if (headerText.substr(0, 3) == "\xEF\xBB\xBF")
    return lineError(headerLine, "a second byte order mark starts the header");
  std::vector<std::string_view> fields;
  splitFields(headerText, fields);
  table.header.assign(fields.begin(), fields.end());
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

  // Rows are read up to the first error; duplicate ids are found after
  // (below) and reported instead when one comes first.
  auto parseRows = [&]() -> std::optional<Error> {
    size_t line;
    std::string_view content;
    while (nextLine(line, content)) {
      splitFields(content, fields);
      if (fields.size() != table.header.size())
        return lineError(line,
                         "expected " + std::to_string(table.header.size()) +
                             " fields, found " + std::to_string(fields.size()));
      auto parse = [&](size_t c, int64_t &out) -> std::optional<Error> {
        std::string_view f = fields[c];
        const char *b = f.data(), *e = f.data() + f.size();
        if (!f.empty() && *b == '+')
          ++b;
        auto [ptr, ec] = std::from_chars(b, e, out);
        if (f.empty() || ec == std::errc::invalid_argument || ptr != e ||
            b == e)
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
      if (std::optional<std::string> msg = checkBufferFields(buf))
        return lineError(line, *msg);
      table.buffers.push_back(buf);
      table.appendRow(fields);
      table.lines.push_back(line);
    }
    return std::nullopt;
  };
  std::optional<Error> rowError = parseRows();
  // Duplicate ids: the rows by id (a stable radix sort keeps each id's rows
  // in file order; a hash map cost a cache miss per row), and of the rows
  // repeating an earlier id the first in the file.
  struct IdRow {
    uint64_t key;
    size_t row;
  };
  std::vector<IdRow> byId(table.buffers.size());
  int64_t minId = std::numeric_limits<int64_t>::max();
  for (const Buffer &b : table.buffers)
    minId = std::min(minId, b.id);
  for (size_t r = 0; r < byId.size(); ++r)
    byId[r] = {static_cast<uint64_t>(table.buffers[r].id) -
                   static_cast<uint64_t>(minId),
               r};
  detail::radixSortBy(byId, [](const IdRow &x) { return x.key; });
  size_t repeat = byId.size(), first = 0;
  for (size_t k = 1; k < byId.size(); ++k)
    if (byId[k].key == byId[k - 1].key &&
        (k == 1 || byId[k - 1].key != byId[k - 2].key) &&
        byId[k].row < repeat) {
      repeat = byId[k].row;
      first = byId[k - 1].row;
    }
  if (repeat < byId.size())
    return lineError(
        table.lines[repeat],
        "duplicate id " + std::to_string(table.buffers[repeat].id) +
            " (first on line " + std::to_string(table.lines[first]) + ")");
  if (rowError)
    return *rowError;
  return table;
}

Expected<CsvTable> mplan::readBufferCsvFile(const std::string &path) {
  // The system's reason, as mplan-plan gives it ("No such file or
  // directory", "Is a directory": a directory opens, but reads as empty).
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return Error{path + ": " + std::strerror(EISDIR)};
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Error{path + ": " +
                 (errno ? std::strerror(errno) : "cannot open file")};
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
  auto emitRow = [&](const std::vector<std::string_view> &fields,
                     std::string_view offset) {
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
  emitRow(
      std::vector<std::string_view>(table.header.begin(), table.header.end()),
      "offset");
  char number[24];
  for (size_t r = 0; r < table.numRows(); ++r) {
    auto [end, ec] = std::to_chars(number, number + sizeof(number), offsets[r]);
    std::string_view offset(number, static_cast<size_t>(end - number));
    if (offsetCol == table.header.size()) {
      // No offset column to fill: the row as it was, then the offset.
      out += table.rowText(r);
      out += ',';
      out += offset;
      out += '\n';
    } else {
      emitRow(table.fields(r), offset);
    }
  }
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
