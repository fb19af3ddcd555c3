//===- TaskAnalysis.cpp - Attach directives to code, check them, plan edits ===//
#include "TaskAnalysis.h"

#include "AnalysisContext.h"
#include "NameLookup.h"
#include "RegionBuilder.h"
#include "SizeChecks.h"
#include "TaskBuilder.h"
#include "TaskRegistry.h"
#include "Templates.h"

#include "CodeGen.h"
#include "LocalScopes.h"
#include "PragmaParser.h"
#include "RuntimeSymbols.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

namespace gpuss {
namespace {

using clang::SourceLocation;

class Analyzer {
public:
  Analyzer(clang::ASTContext &Ctx, const std::vector<RawDirective> &Raws, const ASTFacts &Facts,
           EditPlan &Plan, const ConstantEvaluator &Evaluate)
      : AC(Ctx, Raws, Facts, Plan), Ctx(Ctx), SM(AC.SM), Raws(Raws), Facts(Facts), Plan(Plan),
        Evaluate(Evaluate) {}

  bool run() {
    std::vector<ParsedDirective> Parsed;
    for (const RawDirective &R : Raws) {
      ParseResult Result = parseDirective(R.Text);
      if (!Result.Parsed) {
        AC.error(R.locationOf(Result.Error.Offset), "%0", Result.Error.Message);
        continue;
      }
      Parsed.push_back({&R, std::move(*Result.Parsed)});
    }
    if (AC.Failed) return false;
    for (size_t I = 0; I < Parsed.size(); ++I) {
      ParsedDirective &P = Parsed[I];
      switch (P.D.Kind) {
      case DirectiveKind::Task:
      case DirectiveKind::Target: {
        ParsedDirective *Task = nullptr, *Target = nullptr;
        (P.D.Kind == DirectiveKind::Task ? Task : Target) = &P;
        const ParsedDirective *Last = &P;
        if (I + 1 < Parsed.size()) {
          ParsedDirective &N = Parsed[I + 1];
          bool Complement =
              (N.D.Kind == DirectiveKind::Task && !Task) || (N.D.Kind == DirectiveKind::Target && !Target);
          if (Complement && AC.onlyTrivia(P.Raw->End, N.Raw->Begin)) {
            (N.D.Kind == DirectiveKind::Task ? Task : Target) = &N;
            Last = &N;
            ++I;
          }
        }
        if (!Task) {
          AC.error(Target->Raw->NameLoc,
                   "a target directive must be next to a task directive (on the line before "
                   "or after it)");
          break;
        }
        attachTask(Task, Target, Last->Raw);
        break;
      }
      default:
        handleSync(P);
        break;
      }
    }
    checkCallSitesOfDeclaredTasks();
    warnTaskAddresses();
    for (BlockRequest &Req : BlockRequests)
      outlineBlock(Req);
    if (AC.Failed) return false;
    planCalls();
    planKernelLaunches();
    planLocalWaits();
    if (!AC.Failed) Sizes.checkConstantSizes();
    return !AC.Failed;
  }

private:
  AnalysisContext AC;
  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  const std::vector<RawDirective> &Raws;
  const ASTFacts &Facts;
  EditPlan &Plan;
  const ConstantEvaluator &Evaluate;
  NameResolver Names{AC};
  SizeChecker Sizes{AC, Names, Evaluate};
  RegionBuilder Regions{AC, Names, Sizes};

  TaskRegistry Tasks;
  TemplateSupport Templates{AC, Tasks};
  TaskBuilder Builder{AC, Names, Regions, Templates};
  /// What a declaration's task directives say, to compare them with the
  /// directives of another declaration of the same function.
  struct SummaryEntry {
    std::string Key;   ///< parameters named by position
    std::string Shown; ///< as written, e.g. "inout(a[n])"
    const RawDirective *Raw = nullptr;
    unsigned Offset = 0;
    bool operator<(const SummaryEntry &O) const { return Key < O.Key; }
  };
  struct DirectiveSummary {
    std::vector<SummaryEntry> Entries; ///< sorted by Key
    const RawDirective *Raw = nullptr;
  };
  std::map<const clang::FunctionDecl *, DirectiveSummary> DeclTaskSummary;
  std::set<size_t> SupportEmitted;

  // ------------------------------------------------------------ task blocks
  /// OmpSs: a task directive before a compound statement `{ ... }`. Outlined
  /// after every directive is read (a call inside the block must not be a
  /// task).
  struct BlockRequest {
    ParsedDirective Task;
    std::optional<ParsedDirective> Target;
    const clang::CompoundStmt *Block = nullptr;
  };
  std::vector<BlockRequest> BlockRequests;

  /// What a block does that an outlined function cannot, and the variables
  /// it uses from around it (first use first).
  struct BlockScan {
    std::vector<const clang::DeclRefExpr *> Refs;
    std::vector<const clang::VarDecl *> Vars;
  };

  bool inRange(SourceLocation L, const clang::Stmt *Block) const {
    L = AC.fileLoc(L);
    SourceLocation B = AC.fileLoc(Block->getBeginLoc()), E = AC.fileLoc(Block->getEndLoc());
    return SM.getFileID(L) == SM.getFileID(B) && SM.getFileOffset(B) <= SM.getFileOffset(L) &&
           SM.getFileOffset(L) <= SM.getFileOffset(E);
  }

  bool scanBlock(const clang::Stmt *S, const clang::CompoundStmt *Block,
                 std::vector<const clang::Stmt *> &Loops, BlockScan &Scan) {
    if (!S) return true;
    SourceLocation Loc = AC.fileLoc(S->getBeginLoc());
    const char *Why = nullptr;
    if (llvm::isa<clang::ReturnStmt>(S))
      Why = "returns from the function";
    else if (llvm::isa<clang::GotoStmt, clang::IndirectGotoStmt, clang::LabelStmt>(S))
      Why = "has a goto or a label";
    else if (llvm::isa<clang::BreakStmt, clang::ContinueStmt>(S) && Loops.empty())
      Why = "leaves it with break or continue";
    else if (llvm::isa<clang::CXXThisExpr>(S))
      Why = "uses 'this' (a member function's object)";
    else if (llvm::isa<clang::CUDAKernelCallExpr>(S))
      Why = "launches a CUDA kernel";
    if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(S); Call && !Why)
      if (Tasks.CallSiteTasks.count(Call) || (Call->getDirectCallee() && Templates.declaredTaskCalled(Call)))
        Why = "calls a task";
    if (Why) {
      AC.error(
          Loc,
          "a task block cannot be outlined into a task when it %0; write the task as a function with a task "
          "directive, and call it here",
          Why);
      return false;
    }
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S)) {
      if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
          V && !inRange(V->getLocation(), Block)) {
        Scan.Refs.push_back(Ref);
        if (std::find(Scan.Vars.begin(), Scan.Vars.end(), V) == Scan.Vars.end()) Scan.Vars.push_back(V);
      } else if (Ref->getDecl()->getDeclContext()->isRecord() &&
                 !llvm::isa<clang::EnumConstantDecl>(Ref->getDecl())) {
        AC.error(
            Loc,
            "a task block cannot be outlined into a task when it uses class member '%0'; write the task as a "
            "function with a task directive",
            Ref->getDecl()->getNameAsString());
        return false;
      }
    }
    if (llvm::isa<clang::LambdaExpr>(S)) return true;
    bool Loop =
        llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::SwitchStmt, clang::CXXForRangeStmt>(
            S);
    if (Loop) Loops.push_back(S);
    bool Ok = true;
    for (const clang::Stmt *Child : S->children())
      Ok &= scanBlock(Child, Block, Loops, Scan);
    if (Loop) Loops.pop_back();
    return Ok;
  }

  void outlineBlock(BlockRequest &Req) {
    const clang::CompoundStmt *Block = Req.Block;
    const ParsedDirective *Task = &Req.Task;
    const ParsedDirective *Target = Req.Target ? &*Req.Target : nullptr;
    auto Fn = Facts.StmtFunction.find(Block);
    if (Fn == Facts.StmtFunction.end()) return;
    const clang::FunctionDecl *F = Fn->second;
    SourceLocation Loc = AC.fileLoc(Block->getBeginLoc());
    if (Block->getLBracLoc().isMacroID() || Block->getRBracLoc().isMacroID() || F->isDependentContext() ||
        (Target && Target->D.Target.Device == DeviceKind::Cuda)) {
      AC.error(
          Loc,
          "this task block cannot be outlined into a task (%0); write the task as a function with a task "
          "directive, and call it here",
          F->isDependentContext()                                 ? "it is inside a template"
          : Target && Target->D.Target.Device == DeviceKind::Cuda ? "a CUDA task must be a function"
                                                                  : "it is made by a macro");
      return;
    }
    for (const RawDirective &R : Raws)
      if (inRange(R.Begin, Block)) {
        AC.error(R.NameLoc,
                 "a directive inside a task block: a task's body does not submit or wait for tasks; write "
                 "the task as a function with a task directive");
        return;
      }
    BlockScan Scan;
    std::vector<const clang::Stmt *> Loops;
    for (const clang::Stmt *Child : Block->children())
      if (!scanBlock(Child, Block, Loops, Scan)) return;

    NameScope Scope;
    Scope.Raw = Task->Raw;
    Scope.Enclosing = F;
    Scope.AtOffset = SM.getFileOffset(Loc);
    unsigned Line = AC.lineOf(Loc);
    TaskCode Code;
    Code.Label = Task->D.Task.Label.empty() ? "task block in " + F->getNameAsString() : Task->D.Task.Label;
    Code.HighPriority = Task->D.Task.HighPriority;
    Code.Clauses = sanitizeComment("#pragma css " + Task->Raw->Text);
    if (Task->D.Task.HasPriority) {
      if (!Names.checkExprNames(Scope, Task->D.Task.Priority)) return;
      Code.Priority = Names.qualified(Scope, Task->D.Task.Priority);
    }
    std::vector<PendingAccess> Pending;
    if (!Builder.buildAccesses(Task, Target, Scope, {}, Pending, Code)) return;
    for (const PendingAccess &P : Pending)
      if (!P.Base.Members.empty() || !P.Base.Var) {
        AC.error(
            P.Raw->locationOf(P.It->Offset),
            "'%0' in a task block: name the variables the block uses (members of a struct are not supported "
            "here); or write the task as a function",
            P.It->Text);
        return;
      }

    // The outlined function's parameters: the variables the clauses name,
    // through the task's pointers (an object by address, a pointer by
    // value), and the other locals the block uses, by value.
    Code.Id = Tasks.uniqueId(F->getNameAsString() + "_l" + std::to_string(Line));
    Code.Callee = std::string(rt::LocalPrefix) + "block_" + Code.Id;
    std::vector<std::string> Args;
    std::map<const clang::VarDecl *, std::string> Renamed;
    const clang::LangOptions &LO = Ctx.getLangOpts();
    for (const clang::VarDecl *V : Scan.Vars) {
      std::string Name = V->getNameAsString();
      clang::QualType T = V->getType().getNonReferenceType();
      int Access = -1;
      for (size_t A = 0; A < Pending.size(); ++A)
        if (Pending[A].Base.Var == V) {
          Access = static_cast<int>(A);
          break;
        }
      ParamCode PC;
      PC.Access = Access;
      if (Access >= 0 && !T->isPointerType()) {
        PC.Name = std::string(rt::LocalPrefix) + "p_" + Name;
        PC.Declarator = AC.genType(Ctx.getPointerType(T), PC.Name);
        PC.TypeName = AC.genType(Ctx.getPointerType(T));
        Args.push_back(LO.CPlusPlus ? "__builtin_addressof(" + Name + ")" : "&" + Name);
        Renamed[V] = "(*" + PC.Name + ")";
        if (V->hasLocalStorage())
          LocalTaskData[F][V] |= Code.Accesses[static_cast<size_t>(Access)].Direction != rt::DirOut;
        if (V->hasLocalStorage() &&
            std::find(LocalTaskDataOrder.begin(), LocalTaskDataOrder.end(), F) == LocalTaskDataOrder.end())
          LocalTaskDataOrder.push_back(F);
      } else if (Access >= 0 || V->hasLocalStorage()) {
        const char *Why = nullptr;
        if (T->isArrayType())
          Why = "is an array: name it in a clause, so that the task reaches it";
        else if (T->isVariablyModifiedType())
          Why = "has a variable-length type";
        else if (LO.CPlusPlus && !T.isTriviallyCopyableType(Ctx))
          Why = "is not trivially copyable, so it cannot be copied into the task";
        else if (const clang::TagDecl *Tag = T->getAsTagDecl();
                 Tag && Tag->getDeclContext()->isFunctionOrMethod())
          Why = "has a type local to the function, which the outlined task cannot name";
        else if (V->hasLocalStorage() && V->getParentFunctionOrMethod() != F)
          Why = "belongs to a lambda or block around the task block";
        if (Why) {
          AC.error(AC.fileLoc(V->getLocation()), "'%0', used in the task block at line %1, %2", Name,
                   std::to_string(Line), Why);
          return;
        }
        PC.Name = Name;
        PC.Declarator = AC.genType(T.getUnqualifiedType(), Name);
        PC.TypeName = AC.genType(T.getUnqualifiedType());
        Args.push_back(Name);
      } else {
        if (!T.isConstQualified())
          AC.warning(
              AC.fileLoc(V->getLocation()),
              "'%0' is used in the task block at line %1 and no clause names it: the task uses it in place, "
              "unordered with the other tasks and not on a device; name it in a clause",
              Name, std::to_string(Line));
        continue;
      }
      Code.Params.push_back(PC);
    }

    // The block's text, its variables named through the parameters.
    clang::CharSourceRange Range = clang::CharSourceRange::getTokenRange(Block->getSourceRange());
    std::string Text;
    unsigned At = SM.getFileOffset(AC.fileLoc(Block->getLBracLoc()));
    llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Loc));
    for (const clang::DeclRefExpr *Ref : Scan.Refs) {
      auto It = Renamed.find(llvm::cast<clang::VarDecl>(Ref->getDecl()));
      if (It == Renamed.end()) continue;
      if (Ref->getLocation().isMacroID()) {
        AC.error(
            AC.fileLoc(Ref->getLocation()),
            "'%0', which a clause of the task block names, is used inside a macro here; the outlined task "
            "reaches it through a pointer and cannot rewrite the macro",
            Ref->getDecl()->getNameAsString());
        return;
      }
      unsigned Off = SM.getFileOffset(Ref->getLocation());
      Text += Buffer.slice(At, Off).str() + It->second;
      At = Off + static_cast<unsigned>(Ref->getDecl()->getName().size());
    }
    unsigned EndOff = SM.getFileOffset(AC.fileLoc(Block->getRBracLoc())) + 1;
    Text += Buffer.slice(At, EndOff).str();
    std::string Params;
    for (const ParamCode &P : Code.Params)
      Params += (Params.empty() ? "" : ", ") + P.Declarator;
    Code.Outlined = "static void " + Code.Callee + "(" + (Params.empty() ? std::string("void") : Params) +
                    ")\n" + genLineDirective(Line, AC.fileName(Loc)) + Text + "\n";
    if (Code.Params.empty()) Args.clear();
    Code.Pin = AC.pinOf(*Task->Raw);

    size_t Index = Tasks.add(Code, Task->Raw, nullptr);
    CallSite Site{nullptr, F, Facts.DefinitionTopDecl.count(F) ? Facts.DefinitionTopDecl.at(F) : nullptr};
    emitSupport(Index, Site, false);
    std::string Submit = genCallSiteSubmit(Tasks[Index].Code, Args, AC.fileName(Loc), Line, AC.Opts) + ";\n" +
                         genLineDirective(AC.lineOf(Block->getRBracLoc()), AC.fileName(Loc));
    Plan.Replacements.push_back({clang::Lexer::makeFileCharRange(Range, SM, LO), Submit});
    Plan.UsesRuntime = true;
    AC.commentOut(Task, Target);
  }

  /// The declaration or statement right after a directive group.
  void attachTask(ParsedDirective *Task, ParsedDirective *Target, const RawDirective *Last) {
    // `#pragma css task target device(...) ...`: the target written inside.
    ParsedDirective Embedded;
    if (Task->D.Task.HasTarget) {
      if (Target) {
        AC.error(Target->Raw->NameLoc, "a second target for one task: the task directive has 'target "
                                       "device(...)' in it already; keep one of the two");
        AC.note(Task->Raw->locationOf(Task->D.Task.TargetOffset), "the target in the task directive");
        return;
      }
      Embedded.Raw = Task->Raw;
      Embedded.D.Kind = DirectiveKind::Target;
      Embedded.D.Offset = Task->D.Task.TargetOffset;
      Embedded.D.Target = Task->D.Task.Target;
      Target = &Embedded;
    }
    SourceLocation End = AC.fileLoc(Last->End);
    auto [File, Off] = SM.getDecomposedLoc(End);
    const clang::Decl *BestDecl = nullptr;
    const clang::Stmt *BestStmt = nullptr;
    unsigned BestOff = ~0u;
    for (const clang::Decl *D : Facts.Decls) {
      auto [F, O] = SM.getDecomposedLoc(AC.fileLoc(D->getBeginLoc()));
      if (F == File && O >= Off && O < BestOff) {
        BestOff = O;
        BestDecl = D;
      }
    }
    for (const clang::Stmt *S : Facts.Stmts) {
      auto [F, O] = SM.getDecomposedLoc(AC.fileLoc(S->getBeginLoc()));
      if (F == File && O >= Off && O < BestOff) {
        BestOff = O;
        BestStmt = S;
        BestDecl = nullptr;
      }
    }
    SourceLocation BestLoc = BestOff == ~0u ? SourceLocation() : SM.getComposedLoc(File, BestOff);
    if ((!BestDecl && !BestStmt) || !AC.onlyTrivia(End, BestLoc)) {
      AC.error(Task->Raw->NameLoc, "a task directive must be followed by a function declaration, a function "
                                   "definition or a statement that calls a function");
      return;
    }
    if (BestDecl) {
      const auto *Template = llvm::dyn_cast<clang::FunctionTemplateDecl>(BestDecl);
      const auto *FD =
          Template ? Template->getTemplatedDecl() : llvm::dyn_cast<clang::FunctionDecl>(BestDecl);
      if (!FD) {
        AC.error(AC.fileLoc(BestDecl->getBeginLoc()),
                 "a task directive must be followed by a function declaration, a "
                 "function definition or a call; this declares something else");
        AC.note(Task->Raw->NameLoc, "task directive here");
        return;
      }
      if (!Builder.checkTaskFunction(FD, FD->getLocation())) return;
      const clang::FunctionDecl *Canon = FD->getCanonicalDecl();
      DirectiveSummary Summary = summarize(FD, Task, Target);
      if (auto It = DeclTaskSummary.find(Canon); It != DeclTaskSummary.end()) {
        if (checkSameDirectives(FD, It->second, Summary)) AC.commentOut(Task, Target);
        return; // the same directives on another declaration
      }
      NameScope Scope;
      Scope.Raw = Task->Raw;
      Scope.TaskFn = FD;
      TaskCode Code;
      if (!Builder.buildTask(FD, Task, Target, Scope, nullptr, Code)) return;
      if (Template && !Templates.describeTemplate(Template, Code)) return;
      Code.Id = Tasks.uniqueId(FD->getNameAsString());
      Tasks.DeclTasks[Canon] = Tasks.size();
      DeclTaskSummary[Canon] = std::move(Summary);
      if (Code.Cuda) Tasks.CudaFunctions.insert(Canon);
      Code.Pin = AC.pinOf(*Task->Raw);
      Tasks.add(std::move(Code), Task->Raw, FD);
      AC.commentOut(Task, Target);
      return;
    }
    // A statement: a block (OmpSs inline task), or a call of a function.
    const clang::Stmt *S = BestStmt;
    if (const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(S)) {
      BlockRequest Req;
      Req.Task = *Task;
      if (Target) Req.Target = *Target;
      Req.Block = Block;
      BlockRequests.push_back(std::move(Req));
      return;
    }
    const clang::CallExpr *Call = nullptr;
    if (const auto *E = llvm::dyn_cast<clang::Expr>(S))
      Call = llvm::dyn_cast<clang::CallExpr>(E->IgnoreImplicit()->IgnoreParens());
    if (!Call ||
        llvm::isa<clang::CXXMemberCallExpr, clang::CXXOperatorCallExpr, clang::CUDAKernelCallExpr>(Call) ||
        !Call->getDirectCallee()) {
      AC.error(AC.fileLoc(S->getBeginLoc()),
               "a task directive must be followed by a function declaration, a function "
               "definition, a statement that calls a function or a block '{ ... }'; this statement is not "
               "a function call");
      AC.note(Task->Raw->NameLoc, "task directive here");
      return;
    }
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

  /// A call through a pointer to a task function is an ordinary call: it
  /// runs at once, unordered with the tasks in flight (issue 16, item 2).
  void warnTaskAddresses() {
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

  /// How a task's directive uses parameter I: 0 not named, 1 read, 2 written.
  static int paramUse(const TaskCode &Code, unsigned I) {
    if (I >= Code.Params.size()) return 0;
    const ParamCode &P = Code.Params[I];
    std::set<int> Firsts;
    if (P.Access >= 0) Firsts.insert(P.Access);
    for (const ParamCode::MemberRebase &M : P.Members)
      Firsts.insert(M.Access);
    int Use = 0;
    for (const AccessCode &A : Code.Accesses)
      if (A.Group && Firsts.count(static_cast<int>(A.Group) - 1))
        Use = std::max(Use, A.Direction == rt::DirIn ? 1 : 2);
    return Use;
  }

  /// A directive before a call of a function that has its own replaces it
  /// for that call: refused where it would lose a dependency (a parameter
  /// the function's directive names and this one does not, or one it
  /// writes and this one only reads).
  void checkCallSitesOfDeclaredTasks() {
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

  /// An expression with the parameters of FD named by position, without
  /// whitespace: "$0*2" for "n * 2".
  static std::string canonical(const ExprText &E, const clang::FunctionDecl *FD) {
    std::string Out;
    size_t At = 0;
    for (const ExprName &N : E.Names) {
      size_t Pos = N.Offset - E.Offset;
      if (Pos < At || Pos > E.Text.size()) continue;
      Out += E.Text.substr(At, Pos - At);
      std::string Name = N.Name;
      for (unsigned I = 0; I < FD->getNumParams(); ++I)
        if (FD->getParamDecl(I)->getName() == N.Name) Name = "$" + std::to_string(I);
      Out += Name;
      At = Pos + N.Name.size();
    }
    Out += E.Text.substr(std::min(At, E.Text.size()));
    Out.erase(std::remove_if(Out.begin(), Out.end(), [](char C) { return std::isspace(C); }), Out.end());
    return Out;
  }

  static std::string canonical(const Item &It, const clang::FunctionDecl *FD) {
    std::string Out;
    for (const std::string &T : It.Tokens) {
      std::string C = T;
      for (unsigned I = 0; I < FD->getNumParams(); ++I)
        if (FD->getParamDecl(I)->getName() == T) C = "$" + std::to_string(I);
      Out += C + " ";
    }
    return Out;
  }

  /// `input(n)` of a parameter passed by value: it changes nothing.
  static bool isByValueParam(const clang::FunctionDecl *FD, const Item &It) {
    if (!It.isClassic() || !It.Dims.empty()) return false;
    for (const clang::ParmVarDecl *P : FD->parameters())
      if (P->getName() == It.Name) return isScalar(P->getType());
    return false;
  }

  DirectiveSummary summarize(const clang::FunctionDecl *FD, const ParsedDirective *Task,
                             const ParsedDirective *Target) const {
    DirectiveSummary S;
    S.Raw = Task->Raw;
    // Data items: one direction each (input and output of one item is inout).
    std::map<std::string, SummaryEntry> Items;
    std::map<std::string, std::string> Directions;
    for (const Clause &C : Task->D.Task.Clauses) {
      if (C.Kind == ClauseKind::HighPriority) {
        S.Entries.push_back({"highpriority", "highpriority", Task->Raw, C.Offset});
      } else if (C.Kind == ClauseKind::Priority) {
        S.Entries.push_back({"priority " + canonical(Task->D.Task.Priority, FD),
                             "priority(" + Task->D.Task.Priority.Text + ")", Task->Raw, C.Offset});
      } else if (C.Kind == ClauseKind::Label) {
        S.Entries.push_back(
            {"label " + Task->D.Task.Label, "label(" + Task->D.Task.Label + ")", Task->Raw, C.Offset});
      } else {
        std::string Dir = C.Kind == ClauseKind::Input    ? "input"
                          : C.Kind == ClauseKind::Output ? "output"
                                                         : "inout";
        for (const Item &It : C.Items) {
          if (C.Kind == ClauseKind::Input && isByValueParam(FD, It)) continue; // copied anyway
          std::string Key = canonical(It, FD);
          auto [Pos, New] = Directions.emplace(Key, Dir);
          if (!New && Pos->second != Dir) Pos->second = "inout";
          if (New) Items[Key] = {"", It.Text, Task->Raw, It.Offset};
        }
      }
    }
    for (auto &[Key, Entry] : Items) {
      Entry.Key = Directions[Key] + " " + Key;
      Entry.Shown = Directions[Key] + "(" + Entry.Shown + ")";
      S.Entries.push_back(Entry);
    }
    if (Target && Target->D.Target.Device == DeviceKind::Cuda)
      S.Entries.push_back({"device cuda", "target device(cuda)", Target->Raw, Target->D.Offset});
    if (Target)
      for (const Clause &C : Target->D.Target.Copies)
        for (const Item &It : C.Items)
          S.Entries.push_back({std::string(clauseName(C.Kind)) + " " + canonical(It, FD),
                               std::string(clauseName(C.Kind)) + "(" + It.Text + ")", Target->Raw,
                               It.Offset});
    std::sort(S.Entries.begin(), S.Entries.end());
    return S;
  }

  /// Directives on two declarations of one function must say the same.
  bool checkSameDirectives(const clang::FunctionDecl *FD, const DirectiveSummary &First,
                           const DirectiveSummary &Here) {
    auto missingFrom = [](const DirectiveSummary &A, const DirectiveSummary &B) -> const SummaryEntry * {
      for (const SummaryEntry &E : A.Entries)
        if (!std::binary_search(B.Entries.begin(), B.Entries.end(), E)) return &E;
      return nullptr;
    };
    const SummaryEntry *OnlyHere = missingFrom(Here, First);
    const SummaryEntry *OnlyThere = missingFrom(First, Here);
    if (!OnlyHere && !OnlyThere) return true;
    std::string Name = FD->getNameAsString();
    if (OnlyHere && OnlyThere) {
      AC.error(OnlyHere->Raw->locationOf(OnlyHere->Offset),
               "the task directives on two declarations of '%0' differ: this one says '%1' where the other "
               "says '%2'; write the same clauses on both, or annotate one declaration only",
               Name, OnlyHere->Shown, OnlyThere->Shown);
      AC.note(OnlyThere->Raw->locationOf(OnlyThere->Offset),
              "the other declaration's directive says '%0' here", OnlyThere->Shown);
    } else if (OnlyHere) {
      AC.error(OnlyHere->Raw->locationOf(OnlyHere->Offset),
               "the task directives on two declarations of '%0' differ: this one says '%1', the other does "
               "not; write the same clauses on both, or annotate one declaration only",
               Name, OnlyHere->Shown);
      AC.note(First.Raw->NameLoc, "the other declaration's directive is here");
    } else {
      AC.error(Here.Raw->NameLoc,
               "the task directives on two declarations of '%0' differ: this one does not say '%1', the "
               "other does; write the same clauses on both, or annotate one declaration only",
               Name, OnlyThere->Shown);
      AC.note(OnlyThere->Raw->locationOf(OnlyThere->Offset),
              "the other declaration's directive says '%0' here", OnlyThere->Shown);
    }
    return false;
  }

  const clang::FunctionDecl *functionAround(SourceLocation L) const {
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

  void handleSync(const ParsedDirective &P) {
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

  // ------------------------------------------------------------ call sites
  /// The class whose definition a call is written in, when the task is a
  /// static member function of it (or of a class inside it): the task's code
  /// goes at the end of that class, where its member functions see it.
  const clang::CXXRecordDecl *supportClass(const CallSite &Site, size_t TaskIndex) const {
    const auto *M = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(Tasks[TaskIndex].Function);
    if (!M) return nullptr;
    const clang::CXXRecordDecl *Outermost = M->getParent();
    while (const auto *Around = llvm::dyn_cast<clang::CXXRecordDecl>(Outermost->getDeclContext()))
      Outermost = Around;
    return Site.TopDecl == Outermost ? Outermost : nullptr;
  }

  /// A declaration of the called function for its task code, when the
  /// function is first declared after the place of that code: a call-site
  /// task in the function's own body (recursion).
  std::string prototypeBefore(const clang::FunctionDecl *FD, SourceLocation Loc,
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

  void emitSupport(size_t TaskIndex, const CallSite &Site, bool SubmitHelper) {
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
    Code.Scope = AC.scopeOf(Top->getDeclContext());
    if (SM.getPresumedColumnNumber(Loc) != 1) Text += "\n";
    Text += genLineDirective(AC.lineOf(Pragma->Begin), AC.fileName(Pragma->Begin));
    if (Tasks[TaskIndex].Function) Text += prototypeBefore(Tasks[TaskIndex].Function, Loc, Top);
    Text += genTaskSupport(Code, SubmitHelper, AC.Opts);
    Text += genLineDirective(AC.lineOf(Loc), AC.fileName(Loc));
    Plan.Insertions.push_back({Loc, Text});
  }

  /// A static member function task is called by its class's name; inside
  /// its class's definition, its task code goes at the end of the class
  /// (not possible in a class template, whose members are not tasks).
  bool checkCallPlace(const CallSite &Site, size_t TaskIndex) {
    const auto *M = llvm::dyn_cast<clang::CXXMethodDecl>(Tasks[TaskIndex].Function);
    if (!M) return true;
    SourceLocation Loc = AC.fileLoc(Site.Call->getBeginLoc());
    if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(Site.Call->getCallee()->IgnoreParenImpCasts());
        ME && !ME->isImplicitAccess()) {
      AC.error(
          Loc,
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

  /// The file range of a call's callee when the name is written through
  /// object-like macros (`#define gemm cblas_dgemm`, then `gemm(...)`).
  std::optional<clang::CharSourceRange> calleeNameRange(const clang::CallExpr *Call) const {
    const clang::Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
    clang::SourceRange Name = Callee->getSourceRange();
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Callee))
      Name.setEnd(Ref->getNameInfo().getEndLoc());
    else if (const auto *Lookup = llvm::dyn_cast<clang::UnresolvedLookupExpr>(Callee))
      Name.setEnd(Lookup->getNameInfo().getEndLoc());
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

  bool checkNoMacro(const clang::CallExpr *Call, const std::string &Function) {
    bool CallInMacro = Call->getRParenLoc().isMacroID() ||
                       (Call->getCallee()->getBeginLoc().isMacroID() && !calleeNameRange(Call));
    if (CallInMacro) {
      std::string Macro =
          AC.macroNameAt(Call->getRParenLoc().isMacroID() ? Call->getRParenLoc() : Call->getBeginLoc());
      AC.error(
          AC.fileLoc(Call->getBeginLoc()),
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

  void planCalls() {
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
            {clang::Lexer::makeFileCharRange(
                 clang::CharSourceRange::getTokenRange(Site.Call->getSourceRange()), SM, Ctx.getLangOpts()),
             Text});
        Plan.UsesRuntime = true;
        recordLocalTaskData(Site, It->second);
        continue;
      }
      if (std::optional<size_t> Task = Templates.declaredTaskCalled(Site.Call))
        planDeclaredTaskCall(Site, *Task);
    }
  }

  /// A call of a function annotated at its declaration becomes a call of
  /// its submit helper, with the call's file and line appended.
  void planDeclaredTaskCall(const CallSite &Site, size_t TaskIndex) {
    const TaskCode &Code = Tasks[TaskIndex].Code;
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
    recordLocalTaskData(Site, TaskIndex);
  }

  // ------------------------------------------------------------ locals
  /// Per function: its locals and parameters whose storage a task it calls
  /// uses (`buf` of `double buf[N]`, `&x`, a `T &` argument).
  /// Per local: whether a task reads it (a task that only writes it, then
  /// no reader, is waited for with `wait on`).
  std::map<const clang::FunctionDecl *, std::map<const clang::VarDecl *, bool>> LocalTaskData;
  std::vector<const clang::FunctionDecl *> LocalTaskDataOrder;

  /// Whether task `Code` may read what its parameter I points to: an access
  /// of the parameter that is not output only, or no access (unknown).
  static bool paramMayBeRead(const TaskCode &Code, unsigned I) {
    if (I >= Code.Params.size()) return true;
    const ParamCode &P = Code.Params[I];
    if (P.Access < 0 || !P.Members.empty()) return true;
    for (const AccessCode &A : Code.Accesses)
      if (static_cast<int>(A.Group) - 1 == P.Access && A.Direction != rt::DirOut) return true;
    return false;
  }

  void recordLocalTaskData(const CallSite &Site, size_t TaskIndex) {
    const clang::FunctionDecl *Callee = Tasks[TaskIndex].Function;
    if (!Site.Enclosing) return;
    for (unsigned I = 0; I < Site.Call->getNumArgs(); ++I) {
      bool Storage = false;
      const auto *V = llvm::dyn_cast_or_null<clang::VarDecl>(argVariable(Site.Call->getArg(I), &Storage));
      if (!V || !V->hasLocalStorage()) continue;
      if (I < Callee->getNumParams()) {
        clang::QualType T = Callee->getParamDecl(I)->getType();
        if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified()) Storage = true;
      }
      if (!Storage) continue;
      if (!LocalTaskData.count(Site.Enclosing)) LocalTaskDataOrder.push_back(Site.Enclosing);
      LocalTaskData[Site.Enclosing][V] |= paramMayBeRead(Tasks[TaskIndex].Code, I);
    }
  }

  static std::set<const clang::VarDecl *> keys(const std::map<const clang::VarDecl *, bool> &M) {
    std::set<const clang::VarDecl *> K;
    for (const auto &[V, Read] : M)
      K.insert(V);
    return K;
  }

  /// Before every point where such a local stops living (the end of its
  /// block, a return, a break or continue out of its block, a goto), wait
  /// for its tasks: their results and the runtime's copy-backs must not land
  /// in a dead stack frame (issue 16, item 5).
  void planLocalWaits() {
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
                   "the tasks of '%0' use %1, local to it, which stops living here; the translator waits for "
                   "those tasks at such points, but cannot write the wait into this macro expansion: write "
                   "'#pragma css wait on(%1)' before it",
                   F->getNameAsString(), Names);
          continue;
        }
        Plan.UsesRuntime = true;
      }
  }

  void planKernelLaunches() {
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
};

} // namespace

bool analyzeAndPlan(clang::ASTContext &Context, const std::vector<RawDirective> &Directives,
                    const ASTFacts &Facts, EditPlan &Plan, const ConstantEvaluator &Evaluate) {
  return Analyzer(Context, Directives, Facts, Plan, Evaluate).run();
}

} // namespace gpuss
