//===- TaskVisitor.cpp - Collect what the translator needs from the AST ----===//
#include "TaskVisitor.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

#include <set>
#include <unordered_set>

namespace gpuss {
namespace {

bool atNamespaceScope(const clang::Decl *D) {
  const clang::DeclContext *DC = D->getDeclContext();
  return DC && DC->getRedeclContext()->isFileContext();
}

class FactsVisitor : public clang::RecursiveASTVisitor<FactsVisitor> {
  using Base = clang::RecursiveASTVisitor<FactsVisitor>;

public:
  FactsVisitor(clang::ASTContext &Context, ASTFacts &Facts)
      : Context(Context), SM(Context.getSourceManager()), Facts(Facts) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(clang::Decl *D) {
    if (!D) return true;
    const clang::Decl *SavedTop = TopDecl;
    const clang::FunctionDecl *SavedFunction = Function;
    std::vector<const clang::LambdaExpr *> SavedLambdas;
    bool Definition = false;
    if (!D->isImplicit() && !llvm::isa<clang::TranslationUnitDecl, clang::ParmVarDecl>(D)) {
      const clang::DeclContext *DC = D->getDeclContext();
      bool Scoped = atNamespaceScope(D) || (DC && DC->isRecord());
      if (Scoped && !Function) Facts.Decls.push_back(D);
      // The pattern of a template (whose own context is the namespace too)
      // keeps its template as the top declaration: code inserted before it
      // must go before `template <...>`.
      if (atNamespaceScope(D) && !llvm::isa<clang::NamespaceDecl, clang::LinkageSpecDecl>(D) && !Function &&
          !D->getDescribedTemplate())
        TopDecl = D;
      if (const auto *ND = llvm::dyn_cast<clang::NamedDecl>(D))
        if (atNamespaceScope(D) || llvm::isa<clang::EnumConstantDecl>(D))
          if (const clang::IdentifierInfo *II = ND->getIdentifier()) {
            Facts.FileScopeNames.insert(II->getName().str());
            if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(D); VD && atNamespaceScope(D))
              Facts.FileScopeVars[II->getName().str()] = VD;
          }
    }
    if (auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D);
        FD && FD->doesThisDeclarationHaveABody() && inMainFile(FD->getBeginLoc())) {
      Function = FD;
      Definition = true;
      SavedLambdas.swap(Lambdas); // a local class's member function is in no lambda of its own
      Facts.Definitions.push_back(FD);
      Facts.DefinitionTopDecl[FD] = TopDecl;
    }
    bool Result = Base::TraverseDecl(D);
    TopDecl = SavedTop;
    if (Definition) Lambdas.swap(SavedLambdas);
    Function = SavedFunction;
    return Result;
  }

  bool VisitVarDecl(clang::VarDecl *VD) {
    if (Function && !llvm::isa<clang::ParmVarDecl>(VD) && VD->getDeclContext()->isFunctionOrMethod())
      Facts.Locals[Function].push_back(VD);
    return true;
  }

  bool VisitStmt(clang::Stmt *S) {
    if (!Function || !inMainFile(S->getBeginLoc())) return true;
    clang::SourceLocation Begin = SM.getExpansionLoc(S->getBeginLoc());
    if (SeenStmtBegins.insert(Begin.getRawEncoding()).second) {
      Facts.Stmts.push_back(S);
      Facts.StmtFunction[S] = Function;
      if (!Lambdas.empty()) Facts.StmtLambdas[S] = Lambdas;
    }
    return true;
  }

  bool VisitCallExpr(clang::CallExpr *Call) {
    // The callee: `f`, `(f)`, `(*f)`, `(&f)`.
    const clang::Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
    while (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Callee))
      if (U->getOpcode() == clang::UO_Deref || U->getOpcode() == clang::UO_AddrOf)
        Callee = U->getSubExpr()->IgnoreParenImpCasts();
      else
        break;
    Callees.insert(Callee);
    if (!Function || !inMainFile(Call->getBeginLoc())) return true;
    CallSite Site{Call, Function, TopDecl, Lambdas};
    if (llvm::isa<clang::CUDAKernelCallExpr>(Call))
      Facts.KernelLaunches.push_back(Site);
    else
      Facts.Calls.push_back(Site);
    return true;
  }

  // The lambdas around a call (CallSite::Lambdas). A capture's initializer
  // (`[w = f(x)]`) runs where the lambda is written, outside its body.
  bool TraverseLambdaExpr(clang::LambdaExpr *L) {
    Lambdas.push_back(L);
    bool Result = Base::TraverseLambdaExpr(L);
    Lambdas.pop_back();
    return Result;
  }
  bool TraverseLambdaCapture(clang::LambdaExpr *L, const clang::LambdaCapture *C, clang::Expr *Init) {
    Lambdas.pop_back();
    bool Result = Base::TraverseLambdaCapture(L, C, Init);
    Lambdas.push_back(L);
    return Result;
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr *Ref) {
    if (llvm::isa<clang::FunctionDecl>(Ref->getDecl()) && inMainFile(Ref->getBeginLoc()))
      References.push_back(Ref);
    return true;
  }

  /// After the traversal: the references that are not callees.
  void finish() {
    for (const clang::DeclRefExpr *Ref : References)
      if (!Callees.count(Ref)) Facts.FunctionAddresses.push_back(Ref);
  }

private:
  std::set<const clang::Expr *> Callees;
  std::vector<const clang::DeclRefExpr *> References;

  bool inMainFile(clang::SourceLocation Loc) const { return isTranslatable(SM, Loc); }

  clang::ASTContext &Context;
  clang::SourceManager &SM;
  ASTFacts &Facts;
  const clang::Decl *TopDecl = nullptr;
  const clang::FunctionDecl *Function = nullptr;
  std::vector<const clang::LambdaExpr *> Lambdas;
  std::unordered_set<clang::SourceLocation::UIntTy> SeenStmtBegins;
};

} // namespace

bool isTranslatable(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  if (Loc.isInvalid()) return false;
  Loc = SM.getExpansionLoc(Loc);
  if (SM.isInMainFile(Loc)) return true;
  if (SM.isInSystemHeader(Loc)) return false;
  clang::OptionalFileEntryRef File = SM.getFileEntryRefForID(SM.getFileID(Loc));
  if (!File) return false;
  llvm::StringRef Name = llvm::sys::path::filename(File->getName());
  return Name != "gpuss.h" && Name != "gpuss_version.h";
}

ASTFacts collectFacts(clang::ASTContext &Context) {
  ASTFacts Facts;
  FactsVisitor Visitor(Context, Facts);
  Visitor.TraverseDecl(Context.getTranslationUnitDecl());
  Visitor.finish();
  return Facts;
}

} // namespace gpuss
