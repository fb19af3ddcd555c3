//===- TaskAnalysis.cpp - Attach directives to code, check them, plan edits ===//
#include "TaskAnalysis.h"

#include "AnalysisContext.h"
#include "CallSites.h"
#include "LocalWaits.h"
#include "NameLookup.h"
#include "RegionBuilder.h"
#include "SizeChecks.h"
#include "TaskBuilder.h"
#include "TaskDeclarations.h"
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
    Calls.checkCallSitesOfDeclaredTasks();
    Calls.warnTaskAddresses();
    for (BlockRequest &Req : BlockRequests)
      outlineBlock(Req);
    if (AC.Failed) return false;
    Calls.planCalls();
    Calls.planKernelLaunches();
    Locals.planLocalWaits();
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
  LocalWaits Locals{AC, Tasks};
  CallSites Calls{AC, Tasks, Builder, Templates, Locals};
  TaskDeclarations Declarations{AC, Tasks, Builder, Templates};

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
          Locals.recordLocalVariable(F, V,
                                     Code.Accesses[static_cast<size_t>(Access)].Direction != rt::DirOut);
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
    Calls.emitSupport(Index, Site, false);
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
      Declarations.attach(Task, Target, FD, Template);
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
    Calls.attach(S, Task, Target);
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
};

} // namespace

bool analyzeAndPlan(clang::ASTContext &Context, const std::vector<RawDirective> &Directives,
                    const ASTFacts &Facts, EditPlan &Plan, const ConstantEvaluator &Evaluate) {
  return Analyzer(Context, Directives, Facts, Plan, Evaluate).run();
}

} // namespace gpuss
