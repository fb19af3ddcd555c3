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
    if (Found || !For->getBody() || !AC.holdsOffset(For->getBody(), File, At)) return true;
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

bool warnLoopCounterExtent(AnalysisContext &AC, const NameResolver &Names, const NameScope &S, const Item &It,
                           LoopCounterUse Use) {
  if (!S.Enclosing || !S.Enclosing->getBody() || !S.Raw) return false;
  if (!It.isSingleCount()) return false;
  static const llvm::Regex Identifier("^[A-Za-z_][A-Za-z0-9_]*$");
  const std::string &Counter = It.Dims[0].First.Text;
  if (!Identifier.match(Counter)) return false;
  NameMeaning N = Names.resolveName(S, Counter);
  const auto *V = llvm::dyn_cast_or_null<clang::ValueDecl>(N.Decl);
  if ((N.K != NameMeaning::Param && N.K != NameMeaning::Local) || !V) return false;
  LoopCounterFinder Finder(AC, V, AC.SM.getFileID(AC.fileLoc(S.Raw->Begin)), S.AtOffset);
  Finder.TraverseStmt(const_cast<clang::Stmt *>(S.Enclosing->getBody()));
  if (!Finder.Found) return false;
  clang::SourceLocation At = S.Raw->locationOf(It.Dims[0].Offset);
  if (Use == LoopCounterUse::Wait)
    AC.warning(
        At,
        "'%0' is the %1 elements from %2[0] ('x[n]' counts elements in GPUSs), not element %1 as in "
        "OmpSs: with '%1' the counter of a loop around this wait, it waits for other data than element "
        "%1 (for none when %1 is 0); to wait for element %1 write '%2[%1;1]'",
        It.Text, Counter, It.baseText());
  else
    AC.warning(At,
               "'%0' is the %1 elements from %2[0] ('x[n]' counts elements in GPUSs), not element %1 as in "
               "OmpSs: with '%1' the counter of a loop around this task, the task names other data than "
               "element %1 (none when %1 is 0); for element %1 write '%2[%1;1]'",
               It.Text, Counter, It.baseText());
  return true;
}

} // namespace gpuss
