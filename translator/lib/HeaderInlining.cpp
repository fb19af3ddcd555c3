//===- HeaderInlining.cpp - Write translated headers into the output -------===//
#include "HeaderInlining.h"

#include "CodeGen.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <map>
#include <set>

namespace gpuss {
namespace {

/// The range of the whole line (without its newline) that holds Loc.
clang::CharSourceRange lineAround(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  auto [File, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(Loc));
  llvm::StringRef Buffer = SM.getBufferData(File);
  size_t Begin = Buffer.rfind('\n', Offset);
  Begin = Begin == llvm::StringRef::npos ? 0 : Begin + 1;
  size_t End = Offset;
  while (End < Buffer.size() && Buffer[End] != '\n')
    End += (Buffer[End] == '\\' && End + 1 < Buffer.size()) ? 2 : 1;
  clang::SourceLocation Start = SM.getLocForStartOfFile(File);
  return clang::CharSourceRange::getCharRange(Start.getLocWithOffset(static_cast<int>(Begin)),
                                              Start.getLocWithOffset(static_cast<int>(End)));
}

std::string presumedName(const clang::SourceManager &SM, clang::FileID File) {
  clang::PresumedLoc P = SM.getPresumedLoc(SM.getLocForStartOfFile(File));
  return P.isValid() ? P.getFilename() : "";
}

unsigned depth(const clang::SourceManager &SM, clang::FileID File) {
  unsigned D = 0;
  for (clang::SourceLocation L = SM.getIncludeLoc(File); L.isValid(); L = SM.getIncludeLoc(SM.getFileID(L)))
    ++D;
  return D;
}

} // namespace

bool inlineTranslatedHeaders(clang::Rewriter &Rewrite, const std::vector<Inclusion> &Inclusions,
                             clang::DiagnosticsEngine &Diags) {
  clang::SourceManager &SM = Rewrite.getSourceMgr();
  clang::FileID Main = SM.getMainFileID();
  std::set<clang::FileID> Needed;
  std::vector<clang::FileID> Work;
  for (auto It = Rewrite.buffer_begin(); It != Rewrite.buffer_end(); ++It)
    if (It->first != Main) Work.push_back(It->first);
  if (Work.empty()) return true;

  auto fail = [&](clang::SourceLocation Loc, const std::string &Header, const char *Why) {
    Diags.Report(Loc, Diags.getCustomDiagID(clang::DiagnosticsEngine::Error,
                                            "header '%0' has task calls or directives that the translator "
                                            "rewrites, but %1; include it from the program's own files"))
        << Header << Why;
    return false;
  };
  auto need = [&](clang::FileID File) {
    if (File != Main && Needed.insert(File).second) Work.push_back(File);
  };
  // The changed headers, the headers on their include chains, and the
  // headers that include any of them (skipped inclusions too).
  std::set<const clang::FileEntry *> NeededFiles;
  while (true) {
    while (!Work.empty()) {
      clang::FileID File = Work.back();
      Work.pop_back();
      Needed.insert(File);
      if (clang::OptionalFileEntryRef FE = SM.getFileEntryRefForID(File))
        NeededFiles.insert(&FE->getFileEntry());
      clang::SourceLocation Include = SM.getIncludeLoc(File);
      clang::FileID Parent = Include.isValid() ? SM.getFileID(SM.getExpansionLoc(Include)) : clang::FileID();
      if (Parent.isInvalid() || !SM.getFileEntryRefForID(Parent))
        return fail(SM.getLocForStartOfFile(File), presumedName(SM, File),
                    "it is included from the command line");
      if (SM.isInSystemHeader(SM.getLocForStartOfFile(Parent)))
        return fail(SM.getExpansionLoc(Include), presumedName(SM, File), "a system header includes it");
      need(Parent);
    }
    for (const Inclusion &I : Inclusions) {
      if (!I.File || !NeededFiles.count(&I.File->getFileEntry())) continue;
      clang::FileID From = SM.getFileID(SM.getExpansionLoc(I.Hash));
      if (From == Main || Needed.count(From)) continue;
      if (SM.isInSystemHeader(I.Hash))
        return fail(I.Hash, std::string(I.File->getName()), "a system header includes it");
      need(From);
    }
    if (Work.empty()) break;
  }

  // Which directive entered which file.
  std::map<std::pair<clang::FileID, unsigned>, clang::FileID> Entered; // (includer, line) -> file
  for (clang::FileID File : Needed) {
    clang::SourceLocation Include = SM.getExpansionLoc(SM.getIncludeLoc(File));
    Entered[{SM.getFileID(Include), SM.getSpellingLineNumber(Include)}] = File;
  }
  // Directives of the main file and the needed headers: a needed header's
  // second inclusion is dropped; a quoted one in a needed header names its
  // file by path, since the text moves to the main file.
  for (const Inclusion &I : Inclusions) {
    clang::SourceLocation Hash = SM.getExpansionLoc(I.Hash);
    clang::FileID From = SM.getFileID(Hash);
    if (From != Main && !Needed.count(From)) continue;
    if (Entered.count({From, SM.getSpellingLineNumber(Hash)})) continue; // replaced below
    if (I.File && NeededFiles.count(&I.File->getFileEntry())) {
      Rewrite.ReplaceText(lineAround(SM, Hash),
                          "/* gpuss: " + std::string(I.File->getName()) + " is above */");
      continue;
    }
    if (From != Main && !I.Angled && I.File && I.FilenameRange.getBegin().isFileID()) {
      llvm::SmallString<256> Real;
      if (!llvm::sys::fs::real_path(I.File->getName(), Real))
        Rewrite.ReplaceText(I.FilenameRange, cStringLiteral(std::string(Real.str())));
    }
  }
  // Deepest first: each header's text, its own included headers in it,
  // replaces the directive that included it.
  std::vector<clang::FileID> Order(Needed.begin(), Needed.end());
  std::stable_sort(Order.begin(), Order.end(),
                   [&](clang::FileID A, clang::FileID B) { return depth(SM, A) > depth(SM, B); });
  llvm::Regex Once("^[ \t]*#[ \t]*pragma[ \t]+once([ \t]|$)");
  for (clang::FileID File : Order) {
    clang::SourceRange Whole(SM.getLocForStartOfFile(File), SM.getLocForEndOfFile(File));
    std::string Text = Rewrite.getRewrittenText(clang::CharSourceRange::getCharRange(Whole));
    std::string Lines;
    for (llvm::StringRef Rest = Text; !Rest.empty();) {
      auto [Line, Tail] = Rest.split('\n');
      Lines += Once.match(Line) ? "/* gpuss: " + Line.trim().str() + " */" : Line.str();
      Lines += "\n";
      Rest = Tail;
    }
    clang::SourceLocation Include = SM.getExpansionLoc(SM.getIncludeLoc(File));
    clang::PresumedLoc At = SM.getPresumedLoc(Include);
    std::string Spliced = genLineDirective(1, presumedName(SM, File)) + Lines +
                          genLineDirective(At.getLine() + 1, At.getFilename());
    Spliced.pop_back(); // the directive's own newline follows
    Rewrite.ReplaceText(lineAround(SM, Include), Spliced);
  }
  return true;
}

} // namespace gpuss
