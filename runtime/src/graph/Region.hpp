// Region: an address range of user memory, contiguous or strided.
//
// A region is `rows` runs of `row_bytes` bytes whose starts are `stride`
// bytes apart. Dependency tracking compares regions byte-exactly (never by
// base address alone), and copies between memory spaces keep the strided
// layout so a task body can index its data as it would in user memory.
//
// A value type: immutable once made, read by any thread.
#pragma once

#include "gpuss.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <string>

namespace gpuss {

struct Region {
  std::uintptr_t base = 0;
  std::size_t row_bytes = 0;
  std::size_t rows = 1;
  std::size_t stride = 0;

  static Region from(const css_region &r) {
    Region region{reinterpret_cast<std::uintptr_t>(r.base), r.row_bytes, r.rows == 0 ? 1 : r.rows, r.stride};
    if (region.rows == 1 || region.stride == region.row_bytes) region.make_contiguous();
    return region;
  }
  static Region contiguous(std::uintptr_t base, std::size_t bytes) { return Region{base, bytes, 1, bytes}; }

  bool empty() const { return row_bytes == 0 || rows == 0; }
  bool is_contiguous() const { return rows == 1; }
  // Bytes from the first byte of the first row to the end of the last row.
  std::size_t span() const { return rows == 0 ? 0 : (rows - 1) * stride + row_bytes; }
  std::uintptr_t end() const { return base + span(); }
  std::size_t payload_bytes() const { return row_bytes * rows; }

  bool operator==(const Region &) const = default;

  // A size that overflowed, a null base with bytes, a span that wraps past
  // the end of the address space, or rows that overlap each other. Returns
  // the reason, if any.
  std::optional<std::string> misuse() const {
    if (empty()) return std::nullopt;
    // CSS_SIZE_OVERFLOW: a product of the item's counts and element size
    // that did not fit (css_mul). Said first: the other checks would read
    // it as a negative size.
    if (rows == CSS_SIZE_OVERFLOW) return "region size overflows: its number of rows is 2^63 or more";
    const char *what = row_bytes == CSS_SIZE_OVERFLOW ? (rows == 1 ? "its size" : "the size of each row")
                       : stride == CSS_SIZE_OVERFLOW  ? "the stride between its rows"
                                                      : nullptr;
    if (what)
      return std::string("region size overflows: ") + what +
             ", a product of the item's counts and its element size at this call, is 2^63 bytes or more";
    if (base == 0) return "region at a null address with " + std::to_string(payload_bytes()) + " bytes";
    if (rows > 1 && stride < row_bytes)
      return "strided region whose rows overlap (stride smaller than a row)";
    // A size past 2^63 bytes is almost always a negative count or length
    // computed at the call (`v[n - m]` with m > n) and converted to size_t.
    auto wraps = [&] {
      const bool negative = static_cast<std::ptrdiff_t>(row_bytes) < 0 ||
                            static_cast<std::ptrdiff_t>(rows) < 0 || static_cast<std::ptrdiff_t>(stride) < 0;
      return std::string("region wraps around the address space") +
             (negative ? " (a size or count of the item is negative at this call: " +
                             std::to_string(static_cast<std::ptrdiff_t>(row_bytes)) + " bytes a row, " +
                             std::to_string(static_cast<std::ptrdiff_t>(rows)) + " rows)"
                       : "");
    };
    std::size_t extent = 0;
    if (rows > 1 && __builtin_mul_overflow(rows - 1, stride, &extent)) return wraps();
    if (__builtin_add_overflow(extent, row_bytes, &extent) || base + extent < base) return wraps();
    return std::nullopt;
  }

  // True when both regions share at least one byte.
  bool overlaps(const Region &other) const {
    if (empty() || other.empty()) return false;
    if (end() <= other.base || other.end() <= base) return false;
    if (is_contiguous() && other.is_contiguous()) return true;
    if (const auto pair = rectangles(other)) return pair->first.meets(pair->second);
    // Walk the rows of the region with fewer rows against the other; rows
    // are disjoint intervals so a per-row interval test is exact.
    const Region &few = rows <= other.rows ? *this : other;
    const Region &many = rows <= other.rows ? other : *this;
    for (std::size_t r = 0; r < few.rows; ++r) {
      std::uintptr_t lo = few.base + r * few.stride, hi = lo + few.row_bytes;
      if (many.intersects_interval(lo, hi)) return true;
    }
    return false;
  }

  // Whether overlaps() and contains() answer for `other` in constant time
  // (both strided alike and rectangles on common lines; below), rather than
  // row by row. For tests.
  bool compares_as_rectangles(const Region &other) const { return rectangles(other).has_value(); }

  // True when every byte of `inner` is a byte of this region.
  bool contains(const Region &inner) const {
    if (inner.empty()) return true;
    if (inner.base < base || inner.end() > end()) return false;
    if (is_contiguous()) return true;
    if (const auto pair = rectangles(inner)) return pair->first.holds(pair->second);
    for (std::size_t r = 0; r < inner.rows; ++r) {
      std::uintptr_t lo = inner.base + r * inner.stride;
      std::size_t offset = lo - base;
      std::size_t row = offset / stride, column = offset % stride;
      if (column + inner.row_bytes > row_bytes || row >= rows) return false;
    }
    return true;
  }

private:
  // Two strided regions with the same stride, laid on lines of `stride`
  // bytes that start at a common origin: each whose rows stay within one
  // line is a rectangle (lines [row, row + rows), byte columns [column,
  // column + row_bytes) of each), and two rectangles share a byte exactly
  // when their cells do, which answers overlaps and contains in constant
  // time (tiles of one matrix, halo strips) instead of row by row.
  struct Rectangle {
    std::uintptr_t row, rows, column, columns;
    bool meets(const Rectangle &o) const {
      return row < o.row + o.rows && o.row < row + rows && column < o.column + o.columns &&
             o.column < column + columns;
    }
    bool holds(const Rectangle &o) const {
      return o.row >= row && o.row + o.rows <= row + rows && o.column >= column &&
             o.column + o.columns <= column + columns;
    }
  };
  // This region and `other` as rectangles on common lines, if there are
  // such lines. Lines that start at address 0 would do only when the
  // matrix both lie in starts at a multiple of its leading dimension, which
  // malloc's addresses seldom are: the tiles whose rows cross such a line
  // were compared row by row (a thousand rows a tile; at LU's n = 24576 on
  // the dev VM, half of the master's time submitting). So the lines start
  // at either region's first byte: where the two lie within the same band
  // of each line (the rows of one matrix, say), one of the two fits.
  std::optional<std::pair<Rectangle, Rectangle>> rectangles(const Region &other) const {
    if (is_contiguous() || other.is_contiguous() || stride != other.stride || stride == 0) return std::nullopt;
    // One division: the master compares each region it submits with every
    // tracked one nearby (an LU tile at n = 49152 with some fifty tiles of
    // the block columns either side), and the divisions were most of it.
    const bool this_low = base <= other.base;
    const Region &low = this_low ? *this : other, &high = this_low ? other : *this;
    const std::uintptr_t distance = high.base - low.base;
    const std::uintptr_t lines = distance / stride, column = distance % stride;
    auto ordered = [&](Rectangle low_rectangle, Rectangle high_rectangle) {
      return this_low ? std::pair{low_rectangle, high_rectangle} : std::pair{high_rectangle, low_rectangle};
    };
    // Lines that start at the lower region's first byte.
    if (column + high.row_bytes <= stride)
      return ordered({0, low.rows, 0, low.row_bytes}, {lines, high.rows, column, high.row_bytes});
    // Lines through the higher region's first byte, the first of them at
    // most a line before the lower region (unless the address space ends
    // first: then there are no common lines from here).
    const std::uintptr_t low_column = column == 0 ? 0 : stride - column;
    if (low.base < low_column || low_column + low.row_bytes > stride) return std::nullopt;
    return ordered({0, low.rows, low_column, low.row_bytes},
                   {lines + (column == 0 ? 0 : 1), high.rows, 0, high.row_bytes});
  }

  void make_contiguous() {
    // Checked as gpuss.h's css_mul checks the translator's products: rows
    // of 32 bytes at r = 2^59 + 1 wrapped to one run of 32 bytes.
    row_bytes = css_mul(row_bytes, rows);
    rows = 1;
    stride = row_bytes;
  }

  bool intersects_interval(std::uintptr_t lo, std::uintptr_t hi) const {
    if (hi <= base || lo >= end()) return false;
    if (is_contiguous()) return true;
    // Rows that could touch [lo, hi): from the one containing lo (or the first).
    std::size_t first = lo <= base ? 0 : (lo - base) / stride;
    for (std::size_t r = first; r < rows; ++r) {
      std::uintptr_t row_lo = base + r * stride;
      if (row_lo >= hi) break;
      if (row_lo + row_bytes > lo) return true;
    }
    return false;
  }
};

// Copy a region's bytes between two host-addressable buffers laid out alike.
inline void copy_region_bytes(std::byte *dst, const std::byte *src, const Region &shape) {
  if (shape.is_contiguous()) {
    std::memcpy(dst, src, shape.row_bytes);
    return;
  }
  for (std::size_t r = 0; r < shape.rows; ++r)
    std::memcpy(dst + r * shape.stride, src + r * shape.stride, shape.row_bytes);
}

// FNV-1a over a region's rows laid out from `first` (user memory, or where a
// task body sees them): the checking mode's fingerprint of a region's bytes
// (InputCheck, HostWriteCheck).
inline std::uint64_t fingerprint_region_bytes(const std::byte *first, const Region &shape) {
  std::uint64_t hash = 14695981039346656037ull;
  for (std::size_t r = 0; r < shape.rows; ++r) {
    const std::byte *bytes = first + r * shape.stride;
    for (std::size_t b = 0; b < shape.row_bytes; ++b)
      hash = (hash ^ static_cast<std::uint8_t>(bytes[b])) * 1099511628211ull;
  }
  return hash;
}

} // namespace gpuss
