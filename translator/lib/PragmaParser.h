//===- PragmaParser.h - Parse the text of a css pragma ---------------------===//
//
// Independent of Clang: takes the directive text that follows `#pragma css`
// and builds the Directive AST, or says what is wrong and where (a byte offset
// into the text). Used by the translator and by the fuzzer.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_PRAGMAPARSER_H
#define GPUSS_TRANSLATOR_PRAGMAPARSER_H

#include "Directive.h"

#include <optional>
#include <string>
#include <string_view>

namespace gpuss {

struct ParseError {
  std::string Message;
  unsigned Offset = 0;
};

struct ParseResult {
  std::optional<Directive> Parsed; ///< set on success
  ParseError Error;                ///< meaningful when Parsed is empty
};

/// Parse `Text`, e.g. "task input(A[TS][TS]) inout(B[TS][TS])", the words
/// after `#pragma css` or `#pragma omp`.
ParseResult parseDirective(std::string_view Text, PragmaDialect Dialect = PragmaDialect::Css);

/// The `#pragma omp` directives the translator reads, by their first word
/// (and for `target`, whether an OmpSs `device(...)` follows): the rest,
/// OpenMP's own (simd, master, declare, flush, offloading `target`...), are
/// left to the compiler, which ignores them without -fopenmp.
bool isReadOmpDirective(std::string_view FirstWord, std::string_view NextWord);

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_PRAGMAPARSER_H
