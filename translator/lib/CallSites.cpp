//===- CallSites.cpp - Calls of tasks: call-site pragmas and their rewriting //
#include "CallSites.h"

#include "CodeGen.h"
#include "RuntimeSymbols.h"

#include <cassert>

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

namespace gpuss {

using clang::SourceLocation;

namespace {

/// How a task's directive uses parameter I: 0 not named, 1 read, 2 written.
int paramUse(const TaskCode &Code, unsigned I) {
  if (I >= Code.Params.size()) return 0;
  const ParamCode &P = Code.Params[I];
  std::set<int> Firsts;
  if (P.Access >= 0) Firsts.insert(P.Access);
  for (const ParamCode::MemberRebase &M : P.Members)
    Firsts.insert(M.Access);
  int Use = 0;
  for (const AccessCode &A : Code.Accesses)
    if (A.Group && Firsts.count(static_cast<int>(A.Group) - 1))
      Use = std::max(Use, A.Dir == Direction::In ? 1 : 2);
  return Use;
}

} // namespace

const clang::CallExpr *CallSites::callOf(const clang::Stmt *S) {
  const clang::CallExpr *Call = nullptr;
  if (const auto *E = llvm::dyn_cast<clang::Expr>(S))
    Call = llvm::dyn_cast<clang::CallExpr>(E->IgnoreImplicit()->IgnoreParens());
  if (!Call ||
      llvm::isa<clang::CXXMemberCallExpr, clang::CXXOperatorCallExpr, clang::CUDAKernelCallExpr>(Call) ||
      !Call->getDirectCallee())
    return nullptr;
  // A function that returns a value is not a task function (OpenMP's
  // `#pragma omp task` before `printf(...);`): the statement is a task block.
  if (!Call->getDirectCallee()->getReturnType()->isVoidType() &&
      !Call->getDirectCallee()->isDependentContext())
    return nullptr;
  return Call;
}

void CallSites::attach(const clang::Stmt *S, ParsedDirective *Task, ParsedDirective *Target) {
  const clang::CallExpr *Call = callOf(S);
  assert(Call && "TaskAnalysis gives CallSites only calls (callOf); other statements are task blocks");
  const clang::FunctionDecl *FD = Call->getDirectCallee();
  if (!Builder.checkTaskFunction(FD, AC.fileLoc(Call->getBeginLoc()))) return;
  NameScope Scope;
  Scope.Raw = Task->Raw;
  auto Fn = Facts.StmtFunction.find(S);
  Scope.Enclosing = Fn == Facts.StmtFunction.end() ? nullptr : Fn->second;
  Scope.AtOffset = SM.getFileOffset(AC.fileLoc(Call->getBeginLoc()));
  if (!Scope.Enclosing) return;
  TaskCode Code;
  if (!Builder.buildTask(FD, Task, Target, Scope, Call, Code)) return;
  Code.Id = Tasks.uniqueId(FD->getNameAsString() + "_l" + std::to_string(AC.lineOf(Call->getBeginLoc())));
  if (Code.Cuda) Tasks.CudaFunctions.insert(FD->getCanonicalDecl());
  Tasks.CallSiteTasks[Call] = Tasks.size();
  Tasks.CallSiteOrder.push_back(Call);
  Code.Pin = AC.pinOf(*Task->Raw);
  Tasks.add(std::move(Code), Task->Raw, FD);
  AC.commentOut(Task, Target);
}

void CallSites::warnTaskAddresses() {
  for (const clang::DeclRefExpr *Ref : Facts.FunctionAddresses) {
    std::optional<size_t> Task = Tasks.declaredTaskOf(llvm::cast<clang::FunctionDecl>(Ref->getDecl()));
    if (!Task) continue;
    AC.warning(
        AC.fileLoc(Ref->getLocation()),
        "the address of task function '%0' is taken here: a call through this pointer is an ordinary call, "
        "not a task; it runs at once, unordered with the tasks in flight that use its data; call '%0' by "
        "its name where it must be a task, or wait for its data before calling through the pointer",
        Tasks[*Task].Code.Label);
    AC.note(Tasks[*Task].Pragma->NameLoc, "the directive of '%0' is here", Tasks[*Task].Code.Label);
  }
}

void CallSites::checkCallSitesOfDeclaredTasks() {
  for (const clang::CallExpr *Call : Tasks.CallSiteOrder) {
    size_t Index = Tasks.CallSiteTasks[Call];
    std::optional<size_t> Declared = Tasks.declaredTaskOf(Tasks[Index].Function);
    if (!Declared) continue;
    const TaskCode &Own = Tasks[*Declared].Code, &Here = Tasks[Index].Code;
    for (unsigned I = 0; I < Call->getNumArgs() && I < Own.Params.size(); ++I) {
      int Want = paramUse(Own, I), Have = paramUse(Here, I);
      if (Have >= Want) continue;
      std::string Arg =
          AC.sourceText(clang::CharSourceRange::getTokenRange(Call->getArg(I)->getSourceRange()));
      if (Have == 0)
        AC.error(
            Tasks[Index].Pragma->NameLoc,
            "this task directive replaces the directive of '%0' for this call but does not name argument "
            "%1 ('%2'), which the function's directive names (parameter '%3'): the task would get no "
            "dependency on that data; name it here too, or remove this directive",
            Own.Label, std::to_string(I + 1), Arg, Own.Params[I].Name);
      else
        AC.error(
            Tasks[Index].Pragma->NameLoc,
            "this task directive replaces the directive of '%0' for this call and names argument %1 ('%2') "
            "as input only, where the function's directive writes it (parameter '%3'): the task's writes "
            "would not be ordered with other tasks; name it in inout(...) or output(...) here too, or "
            "remove this directive",
            Own.Label, std::to_string(I + 1), Arg, Own.Params[I].Name);
      AC.note(Tasks[*Declared].Pragma->NameLoc, "the directive of '%0' is here", Own.Label);
      break;
    }
  }
}

const clang::CXXRecordDecl *CallSites::supportClass(const CallSite &Site, size_t TaskIndex) const {
  const auto *M = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(Tasks[TaskIndex].Function);
  if (!M) return nullptr;
  const clang::CXXRecordDecl *Outermost = M->getParent();
  while (const auto *Around = llvm::dyn_cast<clang::CXXRecordDecl>(Outermost->getDeclContext()))
    Outermost = Around;
  return Site.TopDecl == Outermost ? Outermost : nullptr;
}

std::string CallSites::prototypeBefore(const clang::FunctionDecl *FD, SourceLocation Loc,
                                       const clang::Decl *Top) const {
  const clang::FunctionDecl *First = FD->getFirstDecl();
  SourceLocation FirstLoc = AC.fileLoc(First->getBeginLoc());
  if (SM.getFileID(FirstLoc) != SM.getFileID(Loc) || SM.getFileOffset(FirstLoc) < SM.getFileOffset(Loc))
    return "";
  if (FD->getDescribedFunctionTemplate() || FD->getPrimaryTemplate() || llvm::isa<clang::CXXMethodDecl>(FD))
    return "";
  if (Ctx.getLangOpts().CPlusPlus &&
      !FD->getDeclContext()->getRedeclContext()->Equals(Top->getDeclContext()->getRedeclContext()))
    return "";
  std::string S;
  if (FD->getStorageClass() == clang::SC_Static) S += "static ";
  if (FD->isInlineSpecified()) S += "inline ";
  S += AC.genType(FD->getReturnType()) + " " + FD->getNameAsString() + "(";
  for (unsigned I = 0; I < FD->getNumParams(); ++I)
    S += (I ? ", " : "") + AC.genType(FD->getParamDecl(I)->getType());
  if (FD->isVariadic()) S += FD->getNumParams() ? ", ..." : "...";
  if (!FD->getNumParams() && !FD->isVariadic() && FD->hasPrototype() && !Ctx.getLangOpts().CPlusPlus)
    S += "void";
  return S + ");\n";
}

void CallSites::emitSupport(size_t TaskIndex, const CallSite &Site, bool SubmitHelper) {
  if (!SupportEmitted.insert(TaskIndex).second) return;
  TaskCode &Code = Tasks[TaskIndex].Code;
  const RawDirective *Pragma = Tasks[TaskIndex].Pragma;
  std::string Text;
  if (const clang::CXXRecordDecl *Class = supportClass(Site, TaskIndex)) {
    // At the end of the class: static members, public for the calls
    // after the class.
    SourceLocation Loc = AC.fileLoc(Class->getBraceRange().getEnd());
    Code.Scope = AC.scopeOf(Class);
    Text += "\npublic:\n";
    Text += genLineDirective(AC.lineOf(Pragma->Begin), AC.fileName(Pragma->Begin));
    Text += genTaskSupport(Code, SubmitHelper, AC.Opts);
    Text += genLineDirective(AC.lineOf(Loc), AC.fileName(Loc));
    Plan.Insertions.push_back({Loc, Text});
    return;
  }
  const clang::Decl *Top = Site.TopDecl ? Site.TopDecl : Site.Enclosing;
  SourceLocation Loc = AC.fileLoc(Top->getBeginLoc());
  // Where the code is written: a member or namespace function defined out
  // of line (`double Grid::run() {...}`, `double k::run() {...}` at global
  // scope) stands in the scope around its definition, not in its class or
  // namespace (the support code was named through those, and did not
  // compile: a helper's C++ sweep, 2026-11-29).
  Code.Scope = AC.scopeOf(Top->getLexicalDeclContext());
  if (SM.getPresumedColumnNumber(Loc) != 1) Text += "\n";
  Text += genLineDirective(AC.lineOf(Pragma->Begin), AC.fileName(Pragma->Begin));
  if (Tasks[TaskIndex].Function) Text += prototypeBefore(Tasks[TaskIndex].Function, Loc, Top);
  Text += genTaskSupport(Code, SubmitHelper, AC.Opts);
  Text += genLineDirective(AC.lineOf(Loc), AC.fileName(Loc));
  Plan.Insertions.push_back({Loc, Text});
}

bool CallSites::checkCallPlace(const CallSite &Site, size_t TaskIndex) {
  const auto *M = llvm::dyn_cast<clang::CXXMethodDecl>(Tasks[TaskIndex].Function);
  if (!M) return true;
  SourceLocation Loc = AC.fileLoc(Site.Call->getBeginLoc());
  if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(Site.Call->getCallee()->IgnoreParenImpCasts());
      ME && !ME->isImplicitAccess()) {
    AC.error(Loc,
             "call static member task function '%0' by its class's name, as '%0(...)', not through an object",
             Tasks[TaskIndex].Code.Label);
    return false;
  }
  const clang::CXXRecordDecl *Outermost = M->getParent();
  while (const auto *Around = llvm::dyn_cast<clang::CXXRecordDecl>(Outermost->getDeclContext()))
    Outermost = Around;
  if (const auto *Template = llvm::dyn_cast_or_null<clang::ClassTemplateDecl>(Site.TopDecl);
      Template && Template->getTemplatedDecl() == Outermost) {
    AC.error(
        Loc,
        "a call of static member task function '%0' inside the definition of class template '%1' cannot be "
        "translated; call it from a function outside the class template",
        Tasks[TaskIndex].Code.Label, Outermost->getNameAsString());
    return false;
  }
  return true;
}

clang::SourceRange CallSites::calleeName(const clang::CallExpr *Call) {
  // The qualified name only: explicit template arguments (`f<double>`) are
  // not part of it.
  const clang::Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  clang::SourceRange Name = Callee->getSourceRange();
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Callee))
    Name.setEnd(Ref->getNameInfo().getEndLoc());
  else if (const auto *Lookup = llvm::dyn_cast<clang::UnresolvedLookupExpr>(Callee))
    Name.setEnd(Lookup->getNameInfo().getEndLoc());
  return Name;
}

std::optional<clang::CharSourceRange> CallSites::calleeNameRange(const clang::CallExpr *Call) const {
  const clang::SourceRange Name = calleeName(Call);
  if (Name.getBegin().isFileID() && Name.getEnd().isFileID())
    return clang::CharSourceRange::getTokenRange(Name);
  if (Name.getBegin().isFileID() || Name.getEnd().isFileID()) return std::nullopt;
  // Both ends inside one macro use in the file, and nothing else of the
  // call in it: the macro names the function.
  clang::CharSourceRange Begin = SM.getExpansionRange(Name.getBegin());
  clang::CharSourceRange End = SM.getExpansionRange(Name.getEnd());
  if (Begin.getBegin() != End.getBegin() || Begin.getEnd() != End.getEnd()) return std::nullopt;
  for (const clang::Expr *Arg : Call->arguments())
    if (SM.getExpansionLoc(Arg->getBeginLoc()) == Begin.getBegin()) return std::nullopt;
  return Begin;
}

bool CallSites::checkNoMacro(const clang::CallExpr *Call, const std::string &Function) {
  bool CallInMacro = Call->getRParenLoc().isMacroID() ||
                     (Call->getCallee()->getBeginLoc().isMacroID() && !calleeNameRange(Call));
  if (CallInMacro) {
    std::string Macro =
        AC.macroNameAt(Call->getRParenLoc().isMacroID() ? Call->getRParenLoc() : Call->getBeginLoc());
    // Written whole in an argument of a function-like macro (`M(f(x));`)
    // with a task directive before it: the directive's submit is a
    // statement, which the argument cannot hold (a call of a function
    // annotated at its declaration is rewritten there:
    // planDeclaredTaskCall).
    if (std::optional<SpelledCall> Spelled = spelledInMacroArgument(Call)) {
      if (!ReportedMacroCalls.insert(Spelled->NameBegin.getRawEncoding()).second) return false;
      AC.error(Spelled->NameBegin,
               "the call of task function '%0' is written in an argument of macro '%1', where a task directive "
               "before it cannot be translated: write the call outside the macro, or annotate the function's "
               "declaration instead",
               Function, Macro);
      return false;
    }
    const SourceLocation Use = AC.fileLoc(Call->getBeginLoc());
    if (!ReportedMacroCalls.insert(Use.getRawEncoding()).second) return false; // a macro used twice
    AC.error(
        Use,
        "the call of task function '%0' is made by macro '%1', which the translator cannot rewrite: call "
        "'%0' directly, or let the macro name the function only (an object-like macro such as "
        "'#define %1 %0')",
        Function, Macro);
    return false;
  }
  for (const clang::Expr *Arg : Call->arguments())
    if (llvm::isa<clang::CXXDefaultArgExpr>(Arg)) {
      AC.error(AC.fileLoc(Call->getBeginLoc()),
               "write every argument of task function '%0' at the call (default "
               "arguments are not supported)",
               Function);
      return false;
    }
  return true;
}

void CallSites::planCalls() {
  for (const CallSite &Site : Facts.Calls) {
    if (auto It = Tasks.CallSiteTasks.find(Site.Call); It != Tasks.CallSiteTasks.end()) {
      if (!checkNoMacro(Site.Call, Tasks[It->second].Code.Label) || !checkCallPlace(Site, It->second))
        continue;
      emitSupport(It->second, Site, false);
      const TaskCode &Code = Tasks[It->second].Code;
      std::vector<std::string> Args;
      for (const clang::Expr *Arg : Site.Call->arguments())
        Args.push_back(AC.sourceText(clang::CharSourceRange::getTokenRange(Arg->getSourceRange())));
      SourceLocation Loc = AC.fileLoc(Site.Call->getBeginLoc());
      std::string Text = genCallSiteSubmit(Code, Args, AC.fileName(Loc), AC.lineOf(Loc), AC.Opts);
      Text += "\n" + genLineDirective(AC.lineOf(Site.Call->getEndLoc()), AC.fileName(Loc));
      Plan.Replacements.push_back(
          {clang::Lexer::makeFileCharRange(clang::CharSourceRange::getTokenRange(Site.Call->getSourceRange()),
                                           SM, Ctx.getLangOpts()),
           Text});
      Plan.UsesRuntime = true;
      Locals.recordLocalTaskData(Site, It->second);
      continue;
    }
    if (std::optional<size_t> Task = Templates.declaredTaskCalled(Site.Call))
      planDeclaredTaskCall(Site, *Task);
  }
}

std::optional<CallSites::SpelledCall> CallSites::spelledInMacroArgument(const clang::CallExpr *Call) const {
  const clang::SourceRange Name = calleeName(Call);
  const SourceLocation NameBegin = Name.getBegin(), NameEnd = Name.getEnd();
  const SourceLocation RParen = Call->getRParenLoc();
  for (SourceLocation Loc : {NameBegin, NameEnd, RParen})
    if (!Loc.isMacroID() || !SM.isMacroArgExpansion(Loc)) return std::nullopt;
  // Each token as written: in the program's text, all in one file (an
  // argument that a macro's own body supplies has no text to rewrite).
  SpelledCall Spelled{SM.getSpellingLoc(NameBegin), SM.getSpellingLoc(NameEnd), SM.getSpellingLoc(RParen)};
  if (!Spelled.NameBegin.isFileID() || !Spelled.NameEnd.isFileID() || !Spelled.RParen.isFileID())
    return std::nullopt;
  // ... and inside the macro's use, not in a macro's definition that the
  // argument names (`#define STEP f(x)`, then `CHECK(STEP)`), where a
  // rewrite would change every use of that macro.
  const clang::CharSourceRange Use = SM.getExpansionRange(Call->getBeginLoc());
  const clang::FileID File = SM.getFileID(Use.getBegin());
  for (SourceLocation Loc : {Spelled.NameBegin, Spelled.NameEnd, Spelled.RParen})
    if (SM.getFileID(Loc) != File || SM.isBeforeInTranslationUnit(Loc, Use.getBegin()) ||
        SM.isBeforeInTranslationUnit(Use.getEnd(), Loc))
      return std::nullopt;
  return Spelled;
}

void CallSites::warnStringizedCall(const clang::CallExpr *Call, const SpelledCall &Spelled,
                                   const TaskCode &Code) {
  // Warned, not avoided. `#` takes the argument's tokens as written, so a
  // string with the program's spelling needs every token of the call kept;
  // the submit could then come only from a function-like macro named as the
  // task, #defined before the macro's use and #undef'd after it. That gives
  // every call of the use one file:line (or __LINE__, which compilers place
  // differently in a use over several lines), cannot serve `f<T>(x)` or a
  // qualified name, and where the argument is expanded before a `#` takes
  // it (`STR(__VA_ARGS__)`) the string holds the submit still.
  auto It = AC.Stringized.find(Spelled.NameBegin.getRawEncoding());
  if (It == AC.Stringized.end()) return;
  const std::string Callee =
      AC.sourceText(clang::CharSourceRange::getTokenRange(Spelled.NameBegin, Spelled.NameEnd));
  const std::string Macro = AC.macroNameAt(Call->getRParenLoc());
  const std::string &Stringizer = It->second.Macro;
  AC.warning(
      Spelled.NameBegin,
      "the task call '%0(...)' is written in an argument of macro '%1', %2 into a string with '#': the "
      "translator rewrites the call where it is written, so the string holds the rewritten call "
      "'%3(...)' where the program's holds '%0(...)'; write the call outside the macro's argument "
      "where that text matters",
      Callee, Macro,
      Stringizer == Macro ? std::string("which also turns that argument")
                          : "whose text macro '" + Stringizer + "' also turns",
      submitHelperName(Code, AC.Opts));
  AC.note(It->second.Hash, "macro '%0' turns its argument into a string here", Stringizer);
}

void CallSites::planDeclaredTaskCall(const CallSite &Site, size_t TaskIndex) {
  const TaskCode &Code = Tasks[TaskIndex].Code;
  // Written whole in an argument of a function-like macro (`CHECK(f(x))`,
  // `IF_ON(c, f(x))`): the call is rewritten where it is written, so the
  // macro expands the submit as it expanded the call (twice for an argument
  // used twice, as the sequential program calls it twice).
  if (std::optional<SpelledCall> Spelled = spelledInMacroArgument(Site.Call)) {
    if (!checkCallPlace(Site, TaskIndex)) return;
    emitSupport(TaskIndex, Site, true);
    if (!RewrittenMacroArgumentCalls.insert(Spelled->NameBegin.getRawEncoding()).second) return;
    warnStringizedCall(Site.Call, *Spelled, Code);
    Plan.Replacements.push_back({clang::CharSourceRange::getTokenRange(Spelled->NameBegin, Spelled->NameEnd),
                                 submitHelperName(Code, AC.Opts)});
    Plan.Insertions.push_back(
        {Spelled->RParen, genSubmitHelperExtraArgs(AC.fileName(Spelled->NameBegin), AC.lineOf(Spelled->NameBegin),
                                                   Site.Call->getNumArgs() > 0)});
    Plan.UsesRuntime = true;
    Locals.recordLocalTaskData(Site, TaskIndex);
    return;
  }
  if (!checkNoMacro(Site.Call, Code.Label) || !checkCallPlace(Site, TaskIndex)) return;
  emitSupport(TaskIndex, Site, true);
  SourceLocation Loc = AC.fileLoc(Site.Call->getBeginLoc());
  // The qualified name only: explicit template arguments (`f<double>`)
  // stay, and name the helper's.
  Plan.Replacements.push_back({*calleeNameRange(Site.Call), submitHelperName(Code, AC.Opts)});
  Plan.Insertions.push_back(
      {Site.Call->getRParenLoc(),
       genSubmitHelperExtraArgs(AC.fileName(Loc), AC.lineOf(Loc), Site.Call->getNumArgs() > 0)});
  Plan.UsesRuntime = true;
  Locals.recordLocalTaskData(Site, TaskIndex);
}

void CallSites::planKernelLaunches() {
  for (const CallSite &Site : Facts.KernelLaunches) {
    if (!Site.Enclosing || !Tasks.CudaFunctions.count(Site.Enclosing->getCanonicalDecl())) continue;
    const auto *K = llvm::cast<clang::CUDAKernelCallExpr>(Site.Call);
    const clang::CallExpr *Config = K->getConfig();
    if (!Config || Config->getRParenLoc().isMacroID()) continue;
    unsigned Explicit = 0;
    for (const clang::Expr *Arg : Config->arguments())
      if (!llvm::isa<clang::CXXDefaultArgExpr>(Arg)) ++Explicit;
    std::string Stream = std::string(rt::CudaStream) + "()";
    if (Explicit <= 2)
      Plan.Insertions.push_back({Config->getRParenLoc(), ", 0, " + Stream});
    else if (Explicit == 3)
      Plan.Insertions.push_back({Config->getRParenLoc(), ", " + Stream});
    else
      Plan.Replacements.push_back(
          {clang::CharSourceRange::getTokenRange(Config->getArg(3)->getSourceRange()), Stream});
    Plan.UsesRuntime = true;
  }
}

} // namespace gpuss
