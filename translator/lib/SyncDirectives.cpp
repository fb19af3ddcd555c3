//===- SyncDirectives.cpp - barrier, wait on, start and finish -------------===//
#include "SyncDirectives.h"

#include "CodeGen.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/Regex.h"

namespace gpuss {

using clang::SourceLocation;

namespace {

/// Whether V is the counter of a `for` loop whose body holds the file
/// offset At: declared in its init, or assigned or stepped in its init or
/// increment.
class LoopCounterFinder : public clang::RecursiveASTVisitor<LoopCounterFinder> {
public:
  LoopCounterFinder(AnalysisContext &AC, const clang::ValueDecl *V, clang::FileID File, unsigned At)
      : AC(AC), V(V), File(File), At(At) {}
  bool Found = false;

  bool VisitForStmt(clang::ForStmt *For) {
    if (Found || !For->getBody()) return true;
    SourceLocation B = AC.fileLoc(For->getBody()->getBeginLoc()), E = AC.fileLoc(For->getBody()->getEndLoc());
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

void SyncDirectives::warnLoopCounterExtent(const ParsedDirective &P, const Item &It, const NameScope &Scope,
                                           const clang::FunctionDecl *FD, unsigned AtOffset) {
  if (!It.isClassic() || It.Deref || !It.Members.empty() || It.Dims.size() != 1 ||
      It.Dims[0].K != Dimension::Extent)
    return;
  const Dimension &D = It.Dims[0];
  static const llvm::Regex Identifier("^[A-Za-z_][A-Za-z0-9_]*$");
  if (!Identifier.match(D.First.Text)) return;
  NameMeaning N = Names.resolveName(Scope, D.First.Text);
  const auto *V = llvm::dyn_cast_or_null<clang::ValueDecl>(N.Decl);
  if ((N.K != NameMeaning::Param && N.K != NameMeaning::Local) || !V) return;
  LoopCounterFinder Finder(AC, V, SM.getFileID(AC.fileLoc(P.Raw->Begin)), AtOffset);
  Finder.TraverseStmt(FD->getBody());
  if (!Finder.Found) return;
  AC.warning(P.Raw->locationOf(D.Offset),
             "'%0' is the %1 elements from %2[0] ('x[n]' counts elements in GPUSs), not element %1 as in "
             "OmpSs: with '%1' the counter of a loop around this wait, it waits for other data than element "
             "%1 (for none when %1 is 0); to wait for element %1 write '%2[%1;1]'",
             It.Text, D.First.Text, It.baseText());
}

const clang::FunctionDecl *SyncDirectives::functionAround(SourceLocation L) const {
  L = AC.fileLoc(L);
  const clang::FunctionDecl *Best = nullptr;
  for (const clang::FunctionDecl *FD : Facts.Definitions) {
    const clang::Stmt *Body = FD->getBody();
    if (!Body) continue;
    SourceLocation B = AC.fileLoc(Body->getBeginLoc()), E = AC.fileLoc(Body->getEndLoc());
    if (SM.getFileID(B) != SM.getFileID(L)) continue;
    if (SM.getFileOffset(B) < SM.getFileOffset(L) && SM.getFileOffset(L) < SM.getFileOffset(E)) Best = FD;
  }
  return Best;
}

void SyncDirectives::handleSync(const ParsedDirective &P) {
  const RawDirective &R = *P.Raw;
  if (!AC.translatable(AC.fileLoc(R.Begin))) {
    if (functionAround(R.Begin) || SM.isInSystemHeader(AC.fileLoc(R.Begin)))
      AC.error(
          R.NameLoc,
          "'#pragma css %0' in a system header cannot be translated: the translator rewrites the main file "
          "and the program's own headers; include this header with -I or \"...\" instead of -isystem",
          directiveName(P.D.Kind));
    return;
  }
  const clang::FunctionDecl *FD = functionAround(R.Begin);
  if (!FD) {
    AC.error(R.NameLoc,
             "'#pragma css %0' must be inside a function body: it stands where a statement may stand",
             directiveName(P.D.Kind));
    return;
  }
  std::string Code;
  switch (P.D.Kind) {
  case DirectiveKind::Barrier:
    Code = genBarrier();
    break;
  case DirectiveKind::Start:
    Code = genStart();
    break;
  case DirectiveKind::Finish:
    Code = genFinish();
    break;
  case DirectiveKind::Wait: {
    NameScope Scope;
    Scope.Raw = &R;
    Scope.Enclosing = FD;
    Scope.AtOffset = SM.getFileOffset(AC.fileLoc(R.Begin));
    std::vector<RegionCode> Waited;
    bool Ok = true;
    for (const Item &It : P.D.Wait.Items) {
      std::optional<BaseInfo> B = Names.resolveBase(Scope, It);
      if (!B || !Names.checkItemNames(Scope, It)) {
        Ok = false;
        continue;
      }
      std::optional<RegionCode> Region = Regions.pointerElementDepth(*B, It)
                                             ? Regions.buildIndirectRegion(Scope, It, *B)
                                             : Regions.buildRegion(Scope, It, *B);
      if (!Region) {
        Ok = false;
        continue;
      }
      Waited.push_back(*Region);
      if (!Regions.pointerElementDepth(*B, It)) warnLoopCounterExtent(P, It, Scope, FD, Scope.AtOffset);
    }
    if (!Ok) return;
    Code = genWaitOn(Waited);
    break;
  }
  default:
    return;
  }
  if (!AC.replaceDirective(R, Code, /*Headers=*/true)) {
    if (R.FromOperator && !R.Replaceable)
      AC.error(R.NameLoc,
               "'#pragma css %0' made by macro '%1' together with other code cannot be rewritten: make the "
               "macro expand to the _Pragma alone, or write '#pragma css %0' on a line of its own",
               directiveName(P.D.Kind), AC.macroNameAt(R.Begin));
    else
      AC.error(R.NameLoc,
               "'#pragma css %0' here cannot be rewritten; write it as a #pragma line of the source file",
               directiveName(P.D.Kind));
    return;
  }
  Plan.UsesRuntime = true;
}

} // namespace gpuss
