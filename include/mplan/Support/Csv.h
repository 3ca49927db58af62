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

#include <string>
#include <string_view>
#include <vector>

namespace mplan {

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows; ///< raw fields, one per column
  std::vector<Buffer> buffers;                ///< parallel to rows
  std::vector<size_t> lines;                  ///< 1-based line of each row
};

/// Parses CSV text. Errors name the line: missing columns, wrong field
/// counts, non-integers, negative or out-of-range values, upper <= lower,
/// alignments that are not powers of two, duplicate ids, an empty input.
Expected<CsvTable> parseBufferCsv(std::string_view text);

/// Reads and parses a file; errors are prefixed with the path.
Expected<CsvTable> readBufferCsvFile(const std::string &path);

/// Renders `table` with `offsets` (parallel to table.rows) in an `offset`
/// column.
std::string writeBufferCsv(const CsvTable &table,
                           const std::vector<int64_t> &offsets);

/// Renders buffers as a plain `id,lower,upper,size` CSV (plus `alignment`
/// when any buffer has one other than 1, plus `offset` when `offsets` is
/// given).
std::string writeBufferCsv(const std::vector<Buffer> &buffers,
                           const std::vector<int64_t> *offsets = nullptr);

} // namespace mplan

#endif // MPLAN_SUPPORT_CSV_H
