//===- TaskVisitor.h - Collect what the translator needs from the AST ------===//
//
// One RecursiveASTVisitor pass over the translation unit that records the
// facts the analysis works from: the declarations and statements a pragma may
// stand before, every call and kernel launch of the main file with the
// function and namespace-scope declaration around it, local variables (for
// name lookup at call sites and `wait on`) and the names visible at file scope.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_TASKVISITOR_H
#define GPUSS_TRANSLATOR_TASKVISITOR_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace gpuss {

struct CallSite {
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *Enclosing = nullptr; ///< the function definition the call is in
  const clang::Decl *TopDecl = nullptr;           ///< innermost namespace-scope declaration around it
  /// The lambdas whose bodies the call is in, outermost first: a variable
  /// one of them captures by copy is, in the call, the closure's copy.
  std::vector<const clang::LambdaExpr *> Lambdas = {};
};

struct ASTFacts {
  /// Namespace- and class-scope declarations of every file, and statements in
  /// the function bodies of the main file (outermost per start location).
  std::vector<const clang::Decl *> Decls;
  std::vector<const clang::Stmt *> Stmts;
  /// For each recorded statement, the function it is in, and the lambdas
  /// of that function it is in (outermost first), if any.
  std::map<const clang::Stmt *, const clang::FunctionDecl *> StmtFunction;
  std::map<const clang::Stmt *, std::vector<const clang::LambdaExpr *>> StmtLambdas;
  std::vector<CallSite> Calls;                          ///< calls of the main file (CUDA launches excluded)
  std::vector<CallSite> KernelLaunches;                 ///< `k<<<...>>>(...)` of the main file
  std::vector<const clang::FunctionDecl *> Definitions; ///< function definitions of the main file
  std::map<const clang::FunctionDecl *, std::vector<const clang::VarDecl *>> Locals;
  std::map<const clang::FunctionDecl *, const clang::Decl *> DefinitionTopDecl;
  /// References to functions that do not call them (`fp = f`, `&f`, `g(f)`),
  /// in the files the translator rewrites.
  std::vector<const clang::DeclRefExpr *> FunctionAddresses;
  std::set<std::string> FileScopeNames;
  std::map<std::string, const clang::VarDecl *> FileScopeVars;
};

/// Whether the translator rewrites the code at Loc: the main file and the
/// program's own headers (not system headers, not gpuss.h); translated
/// headers are written into the output where they are included
/// (HeaderInlining.h).
bool isTranslatable(const clang::SourceManager &SM, clang::SourceLocation Loc);

/// Walks the whole translation unit once.
ASTFacts collectFacts(clang::ASTContext &Context);

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_TASKVISITOR_H
