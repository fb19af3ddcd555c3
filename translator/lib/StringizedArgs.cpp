//===- StringizedArgs.cpp - Macro arguments that a macro turns into a string ===//
#include "StringizedArgs.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"

namespace gpuss {

void StringizedTokenRecorder::MacroExpands(const clang::Token &MacroName, const clang::MacroDefinition &MD,
                                           clang::SourceRange, const clang::MacroArgs *Args) {
  const clang::MacroInfo *MI = MD.getMacroInfo();
  if (!MI || !Args || !MI->isFunctionLike()) return;
  // In a function-like macro's definition, `#` is followed by a parameter
  // (or by __VA_OPT__, whose text is the macro's own).
  for (unsigned I = 0; I + 1 < MI->getNumTokens(); ++I) {
    const clang::Token &Hash = MI->getReplacementToken(I);
    const clang::IdentifierInfo *Param = MI->getReplacementToken(I + 1).getIdentifierInfo();
    if (Hash.isNot(clang::tok::hash) || !Param) continue;
    int N = MI->getParameterNum(Param);
    if (N < 0) continue;
    // The argument before its own macros expand, as `#` takes it. Its
    // tokens may come from an argument of a macro around this one
    // (`STR(__VA_ARGS__)` in LOG's definition): they are written there.
    for (const clang::Token *T = Args->getUnexpArgument(static_cast<unsigned>(N)); T->isNot(clang::tok::eof);
         ++T) {
      clang::SourceLocation Spelled = SM.getSpellingLoc(T->getLocation());
      if (Spelled.isFileID())
        Out.emplace(Spelled.getRawEncoding(),
                    StringizedToken{MacroName.getIdentifierInfo()->getName().str(), Hash.getLocation()});
    }
  }
}

} // namespace gpuss
