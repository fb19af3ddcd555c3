//===- PragmaCapture.cpp - Record `#pragma css` directives ------------------===//
#include "PragmaCapture.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"

namespace gpuss {

clang::SourceLocation RawDirective::locationOf(unsigned Offset) const {
  const TokenPos *Best = nullptr;
  for (const TokenPos &T : Tokens)
    if (T.Offset <= Offset) Best = &T;
  if (!Best) return NameLoc.isValid() ? NameLoc : Begin;
  if (Offset < Best->Offset + Best->Length && Best->Loc.isFileID())
    return Best->Loc.getLocWithOffset(static_cast<int>(Offset - Best->Offset));
  if (Offset >= Best->Offset + Best->Length && Best->Loc.isFileID())
    return Best->Loc.getLocWithOffset(static_cast<int>(Best->Length)); // just past the last token
  return Best->Loc;
}

void CssPragmaHandler::HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                                    clang::Token &FirstToken) {
  RawDirective D;
  D.Begin = Introducer.Loc;
  D.NameLoc = FirstToken.getLocation();
  clang::Token Tok;
  bool First = true;
  clang::SourceLocation PrevEnd;
  while (true) {
    PP.LexUnexpandedToken(Tok);
    if (Tok.is(clang::tok::eod) || Tok.is(clang::tok::eof)) break;
    // A token after a backslash-newline starts at the backslash: skip it.
    clang::SourceLocation Loc = Tok.getLocation();
    bool Spliced = false;
    if (Loc.isFileID()) {
      const clang::SourceManager &SM = PP.getSourceManager();
      for (const char *P = SM.getCharacterData(Loc); P[0] == '\\';) {
        unsigned Skip = P[1] == '\n' ? 2 : (P[1] == '\r' && P[2] == '\n') ? 3 : 0;
        if (!Skip) break;
        Spliced = true;
        P += Skip;
        Loc = Loc.getLocWithOffset(static_cast<int>(Skip));
      }
    }
    if (First)
      D.NameLoc = Loc;
    else if (Tok.hasLeadingSpace() || Tok.isAtStartOfLine() || Spliced || Tok.getLocation() != PrevEnd)
      D.Text += ' ';
    First = false;
    std::string Spelling = PP.getSpelling(Tok);
    D.Tokens.push_back({static_cast<unsigned>(D.Text.size()), static_cast<unsigned>(Spelling.size()), Loc});
    if (const clang::IdentifierInfo *II = Tok.getIdentifierInfo())
      if (PP.isMacroDefined(II)) D.MacrosDefined.insert(II->getName().str());
    D.Text += Spelling;
    PrevEnd = Tok.getLocation().getLocWithOffset(static_cast<int>(Tok.getLength()));
  }
  D.End = Tok.getLocation();
  if (First) D.NameLoc = Tok.getLocation();
  if (Introducer.Kind != clang::PIK_HashPragma) {
    // _Pragma("...") or __pragma(...): its tokens come from a scratch buffer
    // whose expansion is the operator, itself maybe inside a macro.
    const clang::SourceManager &SM = PP.getSourceManager();
    const clang::LangOptions &LO = PP.getLangOpts();
    D.FromOperator = true;
    clang::SourceLocation Last = D.End.isMacroID() ? SM.getImmediateExpansionRange(D.End).getEnd() : D.End;
    clang::SourceLocation FileLast = SM.getExpansionRange(D.End).getEnd();
    D.End = clang::Lexer::getLocForEndOfToken(FileLast, 0, SM, LO);
    if (Introducer.Loc.isMacroID())
      D.Replaceable = clang::Lexer::isAtStartOfMacroExpansion(Introducer.Loc, SM, LO) &&
                      clang::Lexer::isAtEndOfMacroExpansion(Last, SM, LO);
  }
  Out.push_back(std::move(D));
}

} // namespace gpuss
