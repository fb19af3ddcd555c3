//===- LoopCounters.cpp - items counted with the counter of a loop --------===//
#include "LoopCounters.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/Regex.h"

namespace gpuss {

namespace {

/// Whether V is the counter of a `for` loop whose body holds the file
/// offset At: declared in its init, or named in its init or increment.
class LoopCounterFinder : public clang::RecursiveASTVisitor<LoopCounterFinder> {
public:
  LoopCounterFinder(AnalysisContext &AC, const clang::ValueDecl *V, clang::FileID File, unsigned At)
      : AC(AC), V(V), File(File), At(At) {}
  bool Found = false;

  bool VisitForStmt(clang::ForStmt *For) {
    if (Found || !For->getBody()) return true;
    clang::SourceLocation B = AC.fileLoc(For->getBody()->getBeginLoc()),
                          E = AC.fileLoc(For->getBody()->getEndLoc());
    const clang::SourceManager &SM = AC.SM;
    if (SM.getFileID(B) != File || SM.getFileOffset(B) > At || At > SM.getFileOffset(E)) return true;
    Found = names(For->getInit()) || names(For->getInc());
    return true;
  }

private:
  bool names(const clang::Stmt *S) const {
    if (!S) return false;
    if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S))
      for (const clang::Decl *D : DS->decls())
        if (D == V) return true;
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(S)) return DRE->getDecl() == V;
    for (const clang::Stmt *Child : S->children())
      if (names(Child)) return true;
    return false;
  }

  AnalysisContext &AC;
  const clang::ValueDecl *V;
  clang::FileID File;
  unsigned At;
};

} // namespace

std::string loopCounterExtent(AnalysisContext &AC, const NameResolver &Names, const NameScope &S,
                              const Item &It) {
  if (!S.Enclosing || !S.Enclosing->getBody() || !S.Raw) return "";
  if (!It.isClassic() || It.Deref || !It.Members.empty() || It.Dims.size() != 1 ||
      It.Dims[0].K != Dimension::Extent)
    return "";
  static const llvm::Regex Identifier("^[A-Za-z_][A-Za-z0-9_]*$");
  const std::string &Text = It.Dims[0].First.Text;
  if (!Identifier.match(Text)) return "";
  NameMeaning N = Names.resolveName(S, Text);
  const auto *V = llvm::dyn_cast_or_null<clang::ValueDecl>(N.Decl);
  if ((N.K != NameMeaning::Param && N.K != NameMeaning::Local) || !V) return "";
  LoopCounterFinder Finder(AC, V, AC.SM.getFileID(AC.fileLoc(S.Raw->Begin)), S.AtOffset);
  Finder.TraverseStmt(const_cast<clang::Stmt *>(S.Enclosing->getBody()));
  return Finder.Found ? Text : "";
}

} // namespace gpuss
