//===- PragmaCapture.h - Record `#pragma css` directives --------------------===//
//
// A clang PragmaHandler for the `css` namespace. It does not interpret the
// directive: it records its text, where it is, and where each token of the
// text came from, so that parse errors can be reported at real locations.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_PRAGMACAPTURE_H
#define GPUSS_TRANSLATOR_PRAGMACAPTURE_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Pragma.h"

#include <set>
#include <string>
#include <vector>

namespace gpuss {

/// One `#pragma css ...` as the preprocessor saw it.
struct RawDirective {
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

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_PRAGMACAPTURE_H
