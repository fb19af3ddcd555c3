//===- LocalScopes.h - Where the locals that tasks use stop living ---------===//
//
// A task may use a local variable of the function that calls it (an array,
// or a variable whose address it gets), and the function may return, or
// leave the variable's block, before the next barrier: the task's writes and
// the runtime's copy-back would then land in a dead stack frame. This finds
// every point where such a variable's lifetime ends, so that the translator
// can wait for the variable's tasks there.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_LOCALSCOPES_H
#define GPUSS_TRANSLATOR_LOCALSCOPES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <set>
#include <vector>

namespace gpuss {

struct ScopeExit {
  enum Kind {
    EndOfBlock,     ///< before the closing brace of Where, a compound statement
    AfterStatement, ///< after Where, an if/switch whose own variables end with it
    EndOfIteration, ///< at the end of the body of Where, a loop that declares them (`for (int i = 0; ...)`,
                    ///< `for (double x : v)`): each iteration's tasks are waited for there, as the
                    ///< loop goes on to change or remake the variable, which is out of scope after it
    Jump            ///< before Where, a return, break, continue or goto that leaves the scopes
  };
  Kind K = EndOfBlock;
  const clang::Stmt *Where = nullptr;
  std::vector<const clang::VarDecl *> Vars; ///< in declaration order
};

/// The points of F's body where a variable of `Vars` (locals and parameters
/// of F) stops living. Returns inside lambdas and blocks are theirs. F may
/// be a lambda's call operator, whose captures by copy in Vars are locals
/// of its body: the closure's copies.
std::vector<ScopeExit> scopeExits(const clang::FunctionDecl *F, const std::set<const clang::VarDecl *> &Vars,
                                  const clang::SourceManager &SM);

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_LOCALSCOPES_H
