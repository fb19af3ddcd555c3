//===- LocalWaits.cpp - Release the locals that tasks use where they die ---===//
#include "LocalWaits.h"

#include "LocalScopes.h"

#include "clang/AST/ASTLambda.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

#include <set>

namespace gpuss {

using clang::SourceLocation;

namespace {

/// Whether task `Code` may read what its parameter I points to: an access
/// of the parameter that is not output only, or no access (unknown).
bool paramMayBeRead(const TaskCode &Code, unsigned I) {
  if (I >= Code.Params.size()) return true;
  const ParamCode &P = Code.Params[I];
  if (P.Access < 0 || !P.Members.empty()) return true;
  for (const AccessCode &A : Code.Accesses)
    if (static_cast<int>(A.Group) - 1 == P.Access && reads(A.Dir)) return true;
  return false;
}

/// The function that V is a local of, for a task called in function F inside
/// `Lambdas` (outermost first). A variable that a lambda captures by copy is,
/// for the tasks called in that lambda's body, a local of the body: there it
/// names the closure's copy, which dies with the closure (at the end of the
/// full-expression for one called at once; a named closure may be called
/// again), so its tasks are waited for where the body ends and at its
/// returns, as for the lambda's own locals and parameters, and not where V
/// itself stops living. Then the owner is the lambda's call operator. A
/// capture by reference names what the code around the lambda names: the
/// copy of a lambda further out, or V itself in F.
const clang::FunctionDecl *ownerOf(const clang::VarDecl *V, const clang::FunctionDecl *F,
                                   const std::vector<const clang::LambdaExpr *> &Lambdas) {
  for (auto L = Lambdas.rbegin(); L != Lambdas.rend(); ++L)
    for (const clang::LambdaCapture &C : (*L)->captures())
      if (C.capturesVariable() && C.getCapturedVar() == V && C.getCaptureKind() == clang::LCK_ByCopy)
        return (*L)->getCallOperator();
  return F;
}

std::set<const clang::VarDecl *> keys(const std::map<const clang::VarDecl *, bool> &M) {
  std::set<const clang::VarDecl *> K;
  for (const auto &[V, Read] : M)
    K.insert(V);
  return K;
}

} // namespace

void LocalWaits::recordLocalTaskData(const CallSite &Site, size_t TaskIndex) {
  const clang::FunctionDecl *Callee = Tasks[TaskIndex].Function;
  if (!Site.Enclosing) return;
  for (unsigned I = 0; I < Site.Call->getNumArgs(); ++I) {
    bool Storage = false;
    const auto *V = llvm::dyn_cast_or_null<clang::VarDecl>(argVariable(Site.Call->getArg(I), &Storage));
    // A reference names storage that outlives it (`for (auto &e : v)`):
    // nothing dies with it, and waiting there serialised the loop's tasks.
    if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType()) continue;
    if (I < Callee->getNumParams()) {
      clang::QualType T = Callee->getParamDecl(I)->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified()) Storage = true;
    }
    if (!Storage) continue;
    const clang::FunctionDecl *F = ownerOf(V, Site.Enclosing, Site.Lambdas);
    if (!LocalTaskData.count(F)) LocalTaskDataOrder.push_back(F);
    LocalTaskData[F][V] |= paramMayBeRead(Tasks[TaskIndex].Code, I);
  }
}

void LocalWaits::recordLocalVariable(const clang::FunctionDecl *Enclosing,
                                     const std::vector<const clang::LambdaExpr *> &Lambdas,
                                     const clang::VarDecl *V, bool Read) {
  if (V->getType()->isReferenceType()) return; // its storage outlives it (recordLocalTaskData)
  const clang::FunctionDecl *F = ownerOf(V, Enclosing, Lambdas);
  if (!LocalTaskData.count(F)) LocalTaskDataOrder.push_back(F);
  LocalTaskData[F][V] |= Read;
}

void LocalWaits::planLocalWaits() {
  const clang::LangOptions &LO = Ctx.getLangOpts();
  for (const clang::FunctionDecl *F : LocalTaskDataOrder)
    for (const ScopeExit &E : scopeExits(F, keys(LocalTaskData[F]), SM)) {
      std::vector<RegionCode> Regions;
      std::string Names;
      for (const clang::VarDecl *V : E.Vars) {
        RegionCode R;
        std::string N = V->getNameAsString();
        R.Base = LO.CPlusPlus ? "__builtin_addressof(" + N + ")" : "&" + N;
        R.Bytes = "sizeof " + N;
        Regions.push_back(R);
        Names += (Names.empty() ? "" : ", ") + N;
      }
      // As a free of the locals: every task that uses them finishes,
      // readers too, and the runtime forgets them (css_release).
      std::string Wait = genRelease(Regions) + " /* gpuss: tasks use " + Names + " */";
      SourceLocation Problem;
      if (E.K == ScopeExit::EndOfBlock) {
        SourceLocation Brace = llvm::cast<clang::CompoundStmt>(E.Where)->getRBracLoc();
        if (Brace.isFileID())
          Plan.Insertions.push_back({Brace, Wait + " "});
        else
          Problem = Brace;
      } else if (E.K == ScopeExit::EndOfIteration) {
        const clang::Stmt *Body = nullptr;
        if (const auto *For = llvm::dyn_cast<clang::ForStmt>(E.Where))
          Body = For->getBody();
        else if (const auto *While = llvm::dyn_cast<clang::WhileStmt>(E.Where))
          Body = While->getBody();
        else
          Body = llvm::cast<clang::CXXForRangeStmt>(E.Where)->getBody();
        if (const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(Body)) {
          if (Block->getRBracLoc().isFileID())
            Plan.Insertions.push_back({Block->getRBracLoc(), Wait + " "});
          else
            Problem = Block->getRBracLoc();
        } else {
          // One statement: it becomes a block that ends with the wait.
          // Its end: after the `;` that ends it, or its last token (`}`).
          SourceLocation Begin = Body->getBeginLoc();
          SourceLocation End = clang::Lexer::findLocationAfterToken(Body->getEndLoc(), clang::tok::semi, SM, LO,
                                                                    /*SkipTrailingWhitespaceAndNewLine=*/false);
          if (End.isInvalid()) End = clang::Lexer::getLocForEndOfToken(Body->getEndLoc(), 0, SM, LO);
          if (Begin.isFileID() && End.isValid() && End.isFileID()) {
            Plan.Insertions.push_back({Begin, "{ "});
            Plan.Insertions.push_back({End, " " + Wait + " }"});
          } else {
            Problem = Begin;
          }
        }
      } else if (E.K == ScopeExit::AfterStatement) {
        SourceLocation End = clang::Lexer::getLocForEndOfToken(E.Where->getEndLoc(), 0, SM, LO);
        if (End.isValid() && End.isFileID())
          Plan.Insertions.push_back({End, " " + Wait});
        else
          Problem = E.Where->getEndLoc();
      } else {
        SourceLocation Begin = E.Where->getBeginLoc();
        SourceLocation After =
            clang::Lexer::findLocationAfterToken(E.Where->getEndLoc(), clang::tok::semi, SM, LO,
                                                 /*SkipTrailingWhitespaceAndNewLine=*/false);
        if (Begin.isFileID() && After.isValid() && After.isFileID()) {
          Plan.Insertions.push_back({Begin, "{ " + Wait + " "});
          Plan.Insertions.push_back({After, " }"});
        } else {
          Problem = Begin;
        }
      }
      if (Problem.isValid()) {
        AC.error(AC.fileLoc(Problem),
                 "the tasks of %0 use %1, local to it, which stops living here; the translator waits for "
                 "those tasks at such points, but cannot write the wait into this macro expansion: write "
                 "'#pragma css wait on(%1)' before it",
                 clang::isLambdaCallOperator(F) ? std::string("a lambda") : "'" + F->getNameAsString() + "'",
                 Names);
        continue;
      }
      Plan.UsesRuntime = true;
    }
}

} // namespace gpuss
