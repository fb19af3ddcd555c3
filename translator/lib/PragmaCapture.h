//===- PragmaCapture.h - Record `#pragma css` directives --------------------===//
//
// A clang PragmaHandler for the `css` namespace, and a preprocessor callback
// for the OmpSs directives of the `omp` namespace. Neither interprets the
// directive: each records its text, where it is, and where each token of the
// text came from, so that parse errors can be reported at real locations.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_PRAGMACAPTURE_H
#define GPUSS_TRANSLATOR_PRAGMACAPTURE_H

#include "Directive.h"

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Pragma.h"

#include <set>
#include <string>
#include <vector>

namespace gpuss {

/// One `#pragma css ...` (or OmpSs `#pragma omp ...`) as the preprocessor saw it.
struct RawDirective {
  PragmaDialect Dialect = PragmaDialect::Css;
  std::string Text;              ///< the tokens after `css`, single-spaced where the source had space
  clang::SourceLocation Begin;   ///< the `#` (or `_Pragma`)
  clang::SourceLocation End;     ///< the end of the directive (its last line's end)
  clang::SourceLocation NameLoc; ///< the first token after `css`
  struct TokenPos {
    unsigned Offset;
    unsigned Length;
    clang::SourceLocation Loc;
  };
  std::vector<TokenPos> Tokens;
  /// `_Pragma("css ...")` (or a macro that expands to it): End is then just
  /// past the operator or the macro's use in the file, and Replaceable says
  /// whether the directive is all there is of it (a macro's whole expansion),
  /// so that the translator may rewrite it.
  bool FromOperator = false;
  bool Replaceable = true;
  std::set<std::string> MacrosDefined; ///< identifiers of the text that were macros at the pragma

  /// The source location of byte `Offset` of Text.
  clang::SourceLocation locationOf(unsigned Offset) const;
};

class CssPragmaHandler : public clang::PragmaHandler {
public:
  explicit CssPragmaHandler(std::vector<RawDirective> &Out) : clang::PragmaHandler("css"), Out(Out) {}
  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                    clang::Token &FirstToken) override;

private:
  std::vector<RawDirective> &Out;
};

/// `#pragma oss ...`, OmpSs-2's spelling, which GPUSs does not read: a
/// warning at each, so that an OmpSs-2 program is not silently run in order
/// (found by a sweep of OmpSs-style programs, 2026-11-29). The directive is
/// left in the source, where the compiler ignores it.
class OssPragmaWarner : public clang::PragmaHandler {
public:
  OssPragmaWarner() : clang::PragmaHandler("oss") {}
  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                    clang::Token &FirstToken) override;
};

/// `#pragma omp` lines that OmpSs programs use for tasks (task, taskwait,
/// target device(...)) and the OpenMP constructs around and inside them
/// (isReadOmpDirective). Clang's parser owns the `omp` pragma namespace (it
/// ignores it without -fopenmp), so these are not taken from a handler:
/// this callback sees each `#pragma` before its handler and re-reads the
/// line from the file with a raw lexer. `_Pragma("omp ...")` of those
/// directives is an error (its text cannot be re-read so). Not installed
/// under -fopenmp, where the directives are OpenMP's.
class OmpPragmaRecorder : public clang::PPCallbacks {
public:
  OmpPragmaRecorder(clang::Preprocessor &PP, std::vector<RawDirective> &Out) : PP(PP), Out(Out) {}
  void PragmaDirective(clang::SourceLocation Loc, clang::PragmaIntroducerKind Introducer) override;

private:
  void reportOperator(clang::SourceLocation Loc);
  clang::Preprocessor &PP;
  std::vector<RawDirective> &Out;
};

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_PRAGMACAPTURE_H
