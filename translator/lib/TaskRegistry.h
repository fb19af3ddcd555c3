//===- TaskRegistry.h - The tasks the analysis has found -------------------===//
//
// Owns the list of tasks found so far, in the order found, and the indexes
// into it: the functions annotated at a declaration (by canonical
// declaration), the calls annotated at their call site, the functions that
// are CUDA tasks; and the unique suffixes of generated names. Each task is
// its model for the code generator (TaskModel.h), the directive it comes
// from, and the function it calls.
//
// Plain data: the parts of the analysis fill it (TaskDeclarations,
// CallSites, TaskBlocks) and read it (CallSites, LocalWaits).
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_TASKREGISTRY_H
#define GPUSS_TRANSLATOR_TASKREGISTRY_H

#include "PragmaCapture.h"
#include "TaskModel.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gpuss {

/// One task: a function annotated at its declaration, a call annotated at
/// its call site, or an outlined task block.
struct TaskEntry {
  TaskCode Code;
  const RawDirective *Pragma = nullptr;          ///< its directive (for the #line of its support code)
  const clang::FunctionDecl *Function = nullptr; ///< the function it calls; null for a task block
};

class TaskRegistry {
public:
  /// Appends a task; returns its index.
  size_t add(TaskCode Code, const RawDirective *Pragma, const clang::FunctionDecl *Function) {
    Entries.push_back({std::move(Code), Pragma, Function});
    return Entries.size() - 1;
  }
  size_t size() const { return Entries.size(); }
  TaskEntry &operator[](size_t I) { return Entries[I]; }
  const TaskEntry &operator[](size_t I) const { return Entries[I]; }

  /// `Base`, or `Base_2`, `Base_3`... when taken: a suffix of generated names.
  std::string uniqueId(std::string Base) {
    std::string Id = Base;
    for (int N = 2; !UsedIds.insert(Id).second; ++N)
      Id = Base + "_" + std::to_string(N);
    return Id;
  }

  /// The task of the function FD when it is annotated at a declaration;
  /// a specialization of a function template has its template's task.
  std::optional<size_t> declaredTaskOf(const clang::FunctionDecl *FD) const {
    if (const clang::FunctionTemplateDecl *Template = FD->getPrimaryTemplate())
      FD = Template->getTemplatedDecl();
    auto It = DeclTasks.find(FD->getCanonicalDecl());
    return It == DeclTasks.end() ? std::nullopt : std::optional<size_t>(It->second);
  }

  std::map<const clang::FunctionDecl *, size_t> DeclTasks; ///< canonical decl -> task
  std::map<const clang::CallExpr *, size_t> CallSiteTasks; ///< annotated call -> task
  std::vector<const clang::CallExpr *> CallSiteOrder;      ///< the annotated calls, in directive order
  std::set<const clang::FunctionDecl *> CudaFunctions;     ///< canonical decls

private:
  std::vector<TaskEntry> Entries;
  std::set<std::string> UsedIds;
};

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_TASKREGISTRY_H
