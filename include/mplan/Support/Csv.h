//===- Csv.h - MiniMalloc CSV input and output ------------------*- C++ -*-===//
//
// MiniMalloc's CSV format: a header naming at least `id`, `lower`, `upper`
// and `size` (any column order; `lower` inclusive, `upper` exclusive, sizes
// in bytes), one buffer per row. An optional `alignment` column is read too.
// Other columns are ignored and kept verbatim on output; writing appends an
// `offset` column (or fills an existing one).
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_SUPPORT_CSV_H
#define MPLAN_SUPPORT_CSV_H

#include "mplan/Support/Planner.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mplan {

struct CsvTable {
  std::vector<std::string> header;
  std::vector<Buffer> buffers; ///< one per row
  std::vector<size_t> lines;   ///< 1-based line of each row

  size_t numRows() const { return rowEnd.size(); }
  /// Row r's raw fields (trimmed), one per column.
  std::vector<std::string_view> fields(size_t r) const;
  /// Row r's raw fields joined by commas.
  std::string_view rowText(size_t r) const {
    size_t begin = r ? rowEnd[r - 1] : 0;
    return std::string_view(text).substr(begin, rowEnd[r] - begin);
  }
  /// Appends a row of trimmed fields (the parser; fields hold no comma).
  void appendRow(const std::vector<std::string_view> &fields);

private:
  /// Every row's fields joined by commas, one row after the other (one
  /// string instead of one per field: a 10^7-row file took gigabytes).
  std::string text;
  std::vector<size_t> rowEnd; ///< where each row ends in `text`
};

/// The value checks of one buffer that every door taking buffers makes (the
/// CSV readers for each row, the Python API for each buffer): lower (start)
/// >= 0, size >= 0, upper (end) > lower, alignment a power of two. The
/// message names the fields as the CSV columns do; nullopt if it is valid.
std::optional<std::string> checkBufferFields(const Buffer &buffer);

/// Parses CSV text. Errors name the line: missing columns, wrong field
/// counts, non-integers, negative or out-of-range values, upper <= lower,
/// alignments that are not powers of two, duplicate ids, an empty input.
Expected<CsvTable> parseBufferCsv(std::string_view text);

/// Reads and parses a file; errors are prefixed with the path.
Expected<CsvTable> readBufferCsvFile(const std::string &path);

/// Renders `table` with `offsets` (one per row) in an `offset` column.
std::string writeBufferCsv(const CsvTable &table,
                           const std::vector<int64_t> &offsets);

/// Renders buffers as a plain `id,lower,upper,size` CSV (plus `alignment`
/// when any buffer has one other than 1, plus `offset` when `offsets` is
/// given).
std::string writeBufferCsv(const std::vector<Buffer> &buffers,
                           const std::vector<int64_t> *offsets = nullptr);

} // namespace mplan

#endif // MPLAN_SUPPORT_CSV_H
