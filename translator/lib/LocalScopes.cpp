//===- LocalScopes.cpp - Where the locals that tasks use stop living -------===//
#include "LocalScopes.h"

#include "clang/AST/ASTLambda.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <map>

namespace gpuss {
namespace {

class ExitFinder {
public:
  ExitFinder(const std::set<const clang::VarDecl *> &Vars, const clang::SourceManager &SM)
      : Vars(Vars), SM(SM) {}

  std::vector<ScopeExit> run(const clang::FunctionDecl *F) {
    const clang::Stmt *Body = F->getBody();
    for (const clang::ParmVarDecl *P : F->parameters())
      if (Vars.count(P)) Scope[P] = Body;
    // A lambda's captures by copy are locals of its body, as its parameters
    // are: the closure's copies, which the tasks of a call of it use.
    if (const auto *M = llvm::dyn_cast<clang::CXXMethodDecl>(F); M && clang::isLambdaCallOperator(M))
      for (const clang::LambdaCapture &C : M->getParent()->captures())
        if (C.capturesVariable() && C.getCaptureKind() == clang::LCK_ByCopy)
          if (const auto *V = llvm::dyn_cast<clang::VarDecl>(C.getCapturedVar()); V && Vars.count(V))
            Scope[V] = Body;
    walk(Body);
    std::vector<ScopeExit> Exits;
    // The end of each variable's scope.
    std::map<const clang::Stmt *, std::vector<const clang::VarDecl *>> Ends;
    for (const clang::VarDecl *V : ordered())
      if (Scope.count(V)) Ends[Scope[V]].push_back(V);
    for (auto &[Where, Vs] : Ends)
      Exits.push_back({llvm::isa<clang::CompoundStmt>(Where) ? ScopeExit::EndOfBlock
                       : isLoop(Where)                      ? ScopeExit::EndOfIteration
                                                            : ScopeExit::AfterStatement,
                       Where, Vs});
    // Jumps out of them.
    for (const JumpInfo &J : Jumps) {
      ScopeExit E{ScopeExit::Jump, J.Jump, {}};
      for (const clang::VarDecl *V : ordered()) {
        auto It = Scope.find(V);
        if (It == Scope.end() || !before(V->getLocation(), J.Jump->getBeginLoc())) continue;
        auto In = std::find(J.Ancestors.begin(), J.Ancestors.end(), It->second);
        if (In == J.Ancestors.end()) continue; // not in the variable's scope
        if (J.Target) {
          size_t TargetDepth =
              std::find(J.Ancestors.begin(), J.Ancestors.end(), J.Target) - J.Ancestors.begin();
          size_t ScopeDepth = In - J.Ancestors.begin();
          // A continue leaves the iteration of a loop that declares the
          // variable, as the end of its body does (EndOfIteration).
          bool Leaves = llvm::isa<clang::BreakStmt>(J.Jump) || isLoop(It->second) ? TargetDepth <= ScopeDepth
                                                                                 : TargetDepth < ScopeDepth;
          if (!Leaves) continue;
        }
        E.Vars.push_back(V);
      }
      if (!E.Vars.empty()) Exits.push_back(E);
    }
    return Exits;
  }

private:
  struct JumpInfo {
    const clang::Stmt *Jump;
    std::vector<const clang::Stmt *> Ancestors; ///< outermost first
    const clang::Stmt *Target;                  ///< break/continue: its loop or switch
  };

  const std::set<const clang::VarDecl *> &Vars;
  const clang::SourceManager &SM;
  std::vector<const clang::Stmt *> Stack;
  std::map<const clang::VarDecl *, const clang::Stmt *> Scope;
  std::vector<JumpInfo> Jumps;

  bool before(clang::SourceLocation A, clang::SourceLocation B) const {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A), SM.getExpansionLoc(B));
  }

  std::vector<const clang::VarDecl *> ordered() const {
    std::vector<const clang::VarDecl *> V(Vars.begin(), Vars.end());
    std::sort(V.begin(), V.end(), [&](const clang::VarDecl *A, const clang::VarDecl *B) {
      return before(A->getLocation(), B->getLocation());
    });
    return V;
  }

  static bool isLoop(const clang::Stmt *S) {
    return llvm::isa<clang::ForStmt, clang::WhileStmt, clang::CXXForRangeStmt>(S);
  }

  const clang::Stmt *target(const clang::Stmt *Jump) const {
    bool Break = llvm::isa<clang::BreakStmt>(Jump);
    for (auto It = Stack.rbegin(); It != Stack.rend(); ++It)
      if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(*It) ||
          (Break && llvm::isa<clang::SwitchStmt>(*It)))
        return *It;
    return nullptr;
  }

  void walk(const clang::Stmt *S) {
    if (!S || llvm::isa<clang::BlockExpr>(S)) return;
    // A lambda's body is a function of its own: its locals and parameters
    // stop living at its end and at its returns, and its jumps leave none
    // of the scopes around the lambda.
    if (const auto *L = llvm::dyn_cast<clang::LambdaExpr>(S)) {
      const clang::Stmt *Body = L->getBody();
      for (const clang::ParmVarDecl *P : L->getCallOperator()->parameters())
        if (Vars.count(P)) Scope[P] = Body;
      std::vector<const clang::Stmt *> Saved;
      Saved.swap(Stack);
      walk(Body);
      Stack.swap(Saved);
      return;
    }
    if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S))
      for (const clang::Decl *D : DS->decls())
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D); V && Vars.count(V) && !Stack.empty())
          Scope[V] = Stack.back(); // a block, or the for/if/while/switch it is declared in
    if (llvm::isa<clang::ReturnStmt, clang::GotoStmt, clang::IndirectGotoStmt>(S))
      Jumps.push_back({S, Stack, nullptr});
    else if (llvm::isa<clang::BreakStmt, clang::ContinueStmt>(S))
      Jumps.push_back({S, Stack, target(S)});
    Stack.push_back(S);
    for (const clang::Stmt *Child : S->children())
      walk(Child);
    Stack.pop_back();
  }
};

} // namespace

std::vector<ScopeExit> scopeExits(const clang::FunctionDecl *F, const std::set<const clang::VarDecl *> &Vars,
                                  const clang::SourceManager &SM) {
  if (!F->getBody() || Vars.empty()) return {};
  return ExitFinder(Vars, SM).run(F);
}

} // namespace gpuss
