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

/// Parse `Text`, e.g. "task input(A[TS][TS]) inout(B[TS][TS])".
ParseResult parseDirective(std::string_view Text);

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_PRAGMAPARSER_H
