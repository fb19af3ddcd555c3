//===- LocalWaits.h - Release the locals that tasks use where they die -----===//
//
// Owns the waits the translator adds for local data (issue 16, item 5): as
// task calls are planned, it records which locals and parameters of the
// calling function a task reaches by address (an array, `&x`, a `T &`
// argument, a variable a task block names); then, at every point where such
// a variable stops living (LocalScopes.h: the end of its block, a return,
// break, continue or goto that leaves it), it plans a css_release of the
// variables, so that no task writes, and no copy-back lands, in a dead
// stack frame. A point inside a macro expansion is reported.
//
// Relies on LocalScopes for the points, TaskRegistry for the tasks' models,
// CodeGen for the text and AnalysisContext.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_LOCALWAITS_H
#define GPUSS_TRANSLATOR_LOCALWAITS_H

#include "AnalysisContext.h"
#include "TaskRegistry.h"

#include <map>
#include <vector>

namespace gpuss {

class LocalWaits {
public:
  LocalWaits(AnalysisContext &AC, TaskRegistry &Tasks)
      : AC(AC), Ctx(AC.Ctx), SM(AC.SM), Plan(AC.Plan), Tasks(Tasks) {}

  /// The locals of the caller whose storage the task call at Site (task
  /// TaskIndex) reaches.
  void recordLocalTaskData(const CallSite &Site, size_t TaskIndex);

  /// Local V of function F is used by a task (a task block inside
  /// `Lambdas`, outermost first); `Read`: whether the task may read it.
  void recordLocalVariable(const clang::FunctionDecl *F,
                           const std::vector<const clang::LambdaExpr *> &Lambdas, const clang::VarDecl *V,
                           bool Read);

  /// Before every point where such a local stops living (the end of its
  /// block, a return, a break or continue out of its block, a goto), wait
  /// for its tasks: their results and the runtime's copy-backs must not land
  /// in a dead stack frame (issue 16, item 5).
  void planLocalWaits();

private:
  AnalysisContext &AC;
  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  EditPlan &Plan;
  TaskRegistry &Tasks;

  /// Per function: its locals and parameters whose storage a task it calls
  /// uses (`buf` of `double buf[N]`, `&x`, a `T &` argument).
  /// Per local: whether a task reads it (a task that only writes it, then
  /// no reader, is waited for with `wait on`).
  std::map<const clang::FunctionDecl *, std::map<const clang::VarDecl *, bool>> LocalTaskData;
  std::vector<const clang::FunctionDecl *> LocalTaskDataOrder;
};

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_LOCALWAITS_H
