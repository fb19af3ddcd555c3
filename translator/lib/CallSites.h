//===- CallSites.h - Calls of tasks: call-site pragmas and their rewriting -===//
//
// Owns everything about the calls of the translated files. A task directive
// before a statement that calls a function makes a call-site task of that
// call (checked against the function's own directive, if it has one: it
// must not lose a dependency). Every call of a task, annotated at its call
// site or at the function's declaration, is rewritten: its task support
// code (argument struct, trampoline, submit helper; CodeGen) is written
// once, before the declaration the first call stands in (or at the end of
// the class of a static member task), and the call becomes a submit: the
// submit code in place of a call-site task, or a call of the submit helper
// with the call's file and line. Calls the translator cannot rewrite are
// reported (made by function-like macros, default arguments, through an
// object, inside a class template); taking a task function's address is
// warned about (a call through the pointer is not a task), and so is a call
// in a macro argument that a macro also turns into a string. Kernel launches
// inside CUDA tasks get the task's stream.
//
// Relies on TaskBuilder (call-site models), Templates (calls resolved at
// instantiation), TaskRegistry, LocalWaits (the locals a call hands to a
// task) and AnalysisContext.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_CALLSITES_H
#define GPUSS_TRANSLATOR_CALLSITES_H

#include "AnalysisContext.h"
#include "LocalWaits.h"
#include "TaskBuilder.h"
#include "TaskRegistry.h"
#include "Templates.h"

#include <optional>
#include <set>
#include <string>

namespace gpuss {

class CallSites {
public:
  CallSites(AnalysisContext &AC, TaskRegistry &Tasks, TaskBuilder &Builder, TemplateSupport &Templates,
            LocalWaits &Locals)
      : AC(AC), Ctx(AC.Ctx), SM(AC.SM), Facts(AC.Facts), Plan(AC.Plan), Tasks(Tasks), Builder(Builder),
        Templates(Templates), Locals(Locals) {}

  /// The call when statement S is a call of a free function, which a task
  /// directive before it makes a call-site task; null otherwise.
  static const clang::CallExpr *callOf(const clang::Stmt *S);

  /// A task directive (and its target) before statement S, which must call
  /// a function (callOf): a call-site task.
  void attach(const clang::Stmt *S, ParsedDirective *Task, ParsedDirective *Target);

  /// A directive before a call of a function that has its own replaces it
  /// for that call: refused where it would lose a dependency (a parameter
  /// the function's directive names and this one does not, or one it
  /// writes and this one only reads).
  void checkCallSitesOfDeclaredTasks();

  /// A call through a pointer to a task function is an ordinary call: it
  /// runs at once, unordered with the tasks in flight (issue 16, item 2).
  void warnTaskAddresses();

  /// Rewrites every call of a task.
  void planCalls();

  /// `k<<<g, b>>>(...)` in a CUDA task: launched on the task's stream.
  void planKernelLaunches();

  /// The support code of task TaskIndex, written once, before the first
  /// call (at Site) that needs it.
  void emitSupport(size_t TaskIndex, const CallSite &Site, bool SubmitHelper);

private:
  /// Calls made in macros already reported: an argument or a macro
  /// expanded twice holds one call, reported once (the encoding of the
  /// location reported).
  std::set<clang::SourceLocation::UIntTy> ReportedMacroCalls;
  /// The class whose definition a call is written in, when the task is a
  /// static member function of it (or of a class inside it): the task's code
  /// goes at the end of that class, where its member functions see it.
  const clang::CXXRecordDecl *supportClass(const CallSite &Site, size_t TaskIndex) const;

  /// A declaration of the called function for its task code, when the
  /// function is first declared after the place of that code: a call-site
  /// task in the function's own body (recursion).
  std::string prototypeBefore(const clang::FunctionDecl *FD, clang::SourceLocation Loc,
                              const clang::Decl *Top) const;

  /// A static member function task is called by its class's name; inside
  /// its class's definition, its task code goes at the end of the class
  /// (not possible in a class template, whose members are not tasks).
  bool checkCallPlace(const CallSite &Site, size_t TaskIndex);

  /// The source range of a call's callee's name (its qualifier included,
  /// explicit template arguments not).
  static clang::SourceRange calleeName(const clang::CallExpr *Call);
  /// The file range of a call's callee when the name is written through
  /// object-like macros (`#define gemm cblas_dgemm`, then `gemm(...)`).
  std::optional<clang::CharSourceRange> calleeNameRange(const clang::CallExpr *Call) const;

  /// The call can be rewritten: not made by a function-like macro, every
  /// argument written.
  bool checkNoMacro(const clang::CallExpr *Call, const std::string &Function);

  /// Where a call written whole in one argument of a function-like macro
  /// has its callee's name and closing parenthesis in the program's text;
  /// nothing for any other call.
  struct SpelledCall {
    clang::SourceLocation NameBegin, NameEnd, RParen;
  };
  std::optional<SpelledCall> spelledInMacroArgument(const clang::CallExpr *Call) const;
  /// Calls in macro arguments already rewritten: an argument expanded twice
  /// holds one call, rewritten once (its name's spelling location).
  std::set<clang::SourceLocation::UIntTy> RewrittenMacroArgumentCalls;
  /// Such a call that a macro also turns into a string (`#`): the string
  /// holds the rewritten call. Warned about (see the definition).
  void warnStringizedCall(const clang::CallExpr *Call, const SpelledCall &Spelled, const TaskCode &Code);
  /// A call of a function annotated at its declaration becomes a call of
  /// its submit helper, with the call's file and line appended; one in a
  /// macro argument, where it is written.
  void planDeclaredTaskCall(const CallSite &Site, size_t TaskIndex);

  AnalysisContext &AC;
  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  const ASTFacts &Facts;
  EditPlan &Plan;
  TaskRegistry &Tasks;
  TaskBuilder &Builder;
  TemplateSupport &Templates;
  LocalWaits &Locals;
  std::set<size_t> SupportEmitted; ///< the tasks whose support code is written
};

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_CALLSITES_H
