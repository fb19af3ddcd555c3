//===- PragmaCapture.cpp - Record `#pragma css` directives ------------------===//
#include "PragmaCapture.h"

#include "PragmaParser.h"

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

void OssPragmaWarner::HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                                   clang::Token &FirstToken) {
  clang::DiagnosticsEngine &Diags = PP.getDiagnostics();
  const unsigned Id = Diags.getCustomDiagID(
      clang::DiagnosticsEngine::Warning,
      "'#pragma oss' (OmpSs-2) is not read by GPUSs: the directive is ignored and its code runs in order, "
      "as no task; write it as '#pragma omp ...' in the OmpSs forms GPUSs reads, or '#pragma css ...' "
      "(docs/language.md)");
  Diags.Report(FirstToken.getLocation(), Id);
  clang::Token Tok;
  do
    PP.LexUnexpandedToken(Tok);
  while (!Tok.is(clang::tok::eod) && !Tok.is(clang::tok::eof));
  (void)Introducer;
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

/// `_Pragma("omp ...")`, directly or from a macro: not read (its text is
/// not in the file to re-read), and not silently left either, where the
/// program's results depend on it.
void OmpPragmaRecorder::reportOperator(clang::SourceLocation Loc) {
  const clang::SourceManager &SM = PP.getSourceManager();
  const clang::LangOptions &LO = PP.getLangOpts();
  clang::SourceLocation Spelling = SM.getSpellingLoc(Loc);
  auto [File, Offset] = SM.getDecomposedLoc(Spelling);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid) return;
  clang::Lexer Raw(SM.getLocForStartOfFile(File), LO, Buffer.begin(), Buffer.begin() + Offset, Buffer.end());
  clang::Token Tok;
  Raw.LexFromRawLexer(Tok); // _Pragma (or __pragma)
  Raw.LexFromRawLexer(Tok); // (
  Raw.LexFromRawLexer(Tok);
  if (!Tok.is(clang::tok::string_literal)) return;
  std::string Text = clang::Lexer::getSpelling(Tok, SM, LO);
  Text = Text.size() >= 2 ? Text.substr(1, Text.size() - 2) : std::string();
  llvm::SmallVector<llvm::StringRef, 4> Words;
  llvm::StringRef(Text).split(Words, ' ', 3, /*KeepEmpty=*/false);
  if (Words.size() < 2 || Words[0] != "omp" ||
      !isReadOmpDirective(Words[1], Words.size() > 2 ? Words[2] : ""))
    return;
  // Recorded for the analysis to refuse (TaskAnalysis), with the other
  // directives' errors.
  RawDirective D;
  D.Dialect = PragmaDialect::Omp;
  D.FromOperator = true;
  D.Replaceable = false;
  D.Text = llvm::StringRef(Text).drop_front(3).trim().str();
  D.Begin = D.End = D.NameLoc = SM.getExpansionLoc(Loc);
  Out.push_back(std::move(D));
}

void OmpPragmaRecorder::PragmaDirective(clang::SourceLocation Loc, clang::PragmaIntroducerKind Introducer) {
  if (Introducer != clang::PIK_HashPragma) {
    if (!PP.getSourceManager().isInSystemHeader(PP.getSourceManager().getExpansionLoc(Loc)))
      reportOperator(Loc);
    return;
  }
  if (!Loc.isFileID()) return;
  const clang::SourceManager &SM = PP.getSourceManager();
  // A system header's OpenMP (a library parallelised with it) is not the
  // program's, and not translated.
  if (SM.isInSystemHeader(Loc)) return;
  const clang::LangOptions &LO = PP.getLangOpts();
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid) return;
  clang::Lexer Raw(SM.getLocForStartOfFile(File), LO, Buffer.begin(), Buffer.begin() + Offset, Buffer.end());
  // `#`, `pragma`, then the namespace and the rest of the line (a raw lexer
  // reads across backslash-newlines, so the line ends at the first token
  // that starts one).
  std::vector<clang::Token> Line;
  clang::Token Tok;
  Raw.LexFromRawLexer(Tok);
  while (!Raw.LexFromRawLexer(Tok) && !Tok.isAtStartOfLine())
    Line.push_back(Tok);
  if (!Tok.isAtStartOfLine() && Tok.isNot(clang::tok::eof)) Line.push_back(Tok);
  auto Word = [&](size_t I) -> llvm::StringRef {
    return I < Line.size() && Line[I].is(clang::tok::raw_identifier) ? Line[I].getRawIdentifier()
                                                                     : llvm::StringRef();
  };
  if (Line.size() < 3 || Word(0) != "pragma" || Word(1) != "omp" || !isReadOmpDirective(Word(2), Word(3)))
    return;
  RawDirective D;
  D.Dialect = PragmaDialect::Omp;
  D.Begin = Loc;
  D.NameLoc = Line[2].getLocation();
  clang::SourceLocation PrevEnd;
  for (size_t I = 2; I < Line.size(); ++I) {
    const clang::Token &T = Line[I];
    clang::SourceLocation At = T.getLocation();
    if (I > 2 && (T.hasLeadingSpace() || At != PrevEnd)) D.Text += ' ';
    std::string Spelling =
        T.is(clang::tok::raw_identifier) ? T.getRawIdentifier().str() : clang::Lexer::getSpelling(T, SM, LO);
    D.Tokens.push_back({static_cast<unsigned>(D.Text.size()), static_cast<unsigned>(Spelling.size()), At});
    if (T.is(clang::tok::raw_identifier) && PP.isMacroDefined(Spelling)) D.MacrosDefined.insert(Spelling);
    D.Text += Spelling;
    PrevEnd = At.getLocWithOffset(static_cast<int>(T.getLength()));
  }
  // The end of the directive's last line, where the css handler's `eod` is.
  const char *LineEnd = SM.getCharacterData(PrevEnd);
  while (*LineEnd != '\n' && *LineEnd != '\r' && *LineEnd != '\0')
    ++LineEnd;
  D.End = PrevEnd.getLocWithOffset(static_cast<int>(LineEnd - SM.getCharacterData(PrevEnd)));
  Out.push_back(std::move(D));
}

} // namespace gpuss
