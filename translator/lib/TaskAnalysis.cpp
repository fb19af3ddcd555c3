//===- TaskAnalysis.cpp - Attach directives to code, check them, plan edits ===//
#include "TaskAnalysis.h"

#include "CodeGen.h"
#include "PragmaParser.h"
#include "RuntimeSymbols.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <cctype>
#include <map>
#include <optional>
#include <set>

namespace gpuss {
namespace {

using clang::SourceLocation;

struct ParsedDirective {
  const RawDirective *Raw = nullptr;
  Directive D;
};

/// What an item's name refers to.
struct BaseInfo {
  std::string Name;
  clang::QualType Type;     ///< the declared type (adjusted for parameters)
  clang::QualType Original; ///< the type as written (arrays of parameters)
  bool IsParm = false;
  int ParamIndex = -1;                   ///< declaration pragmas: the task function's parameter
  const clang::ValueDecl *Var = nullptr; ///< call sites and `wait on`: the variable
};

/// Where the names of a directive are looked up.
struct NameScope {
  const RawDirective *Raw = nullptr;
  const clang::FunctionDecl *TaskFn = nullptr;    ///< declaration pragma: its parameters
  const clang::FunctionDecl *Enclosing = nullptr; ///< call-site pragma / wait: the function around it
  unsigned AtOffset = 0;                          ///< ... and the position in it (main file offset)
};

struct PendingAccess {
  const Item *It = nullptr;
  const RawDirective *Raw = nullptr; ///< the directive the item is written in
  BaseInfo Base;
  std::string Direction;
  unsigned CopyBits = 0;
};

enum : unsigned { CopyInBit = 1, CopyOutBit = 2 };

std::string sanitizeComment(const std::string &S) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    Out += S[I];
    if (S[I] == '*' && I + 1 < S.size() && S[I + 1] == '/') Out += ' ';
  }
  return Out;
}

class Analyzer {
public:
  Analyzer(clang::ASTContext &Ctx, const std::vector<RawDirective> &Raws, const ASTFacts &Facts,
           EditPlan &Plan)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Diags(Ctx.getDiagnostics()), Raws(Raws), Facts(Facts),
        Plan(Plan) {
    Opts.CPlusPlus = Ctx.getLangOpts().CPlusPlus;
  }

  bool run() {
    std::vector<ParsedDirective> Parsed;
    for (const RawDirective &R : Raws) {
      ParseResult Result = parseDirective(R.Text);
      if (!Result.Parsed) {
        error(R.locationOf(Result.Error.Offset), "%0", Result.Error.Message);
        continue;
      }
      Parsed.push_back({&R, std::move(*Result.Parsed)});
    }
    if (Failed) return false;
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
          if (Complement && onlyTrivia(P.Raw->End, N.Raw->Begin)) {
            (N.D.Kind == DirectiveKind::Task ? Task : Target) = &N;
            Last = &N;
            ++I;
          }
        }
        if (!Task) {
          error(Target->Raw->NameLoc,
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
    if (Failed) return false;
    planCalls();
    planKernelLaunches();
    return !Failed;
  }

private:
  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  clang::DiagnosticsEngine &Diags;
  const std::vector<RawDirective> &Raws;
  const ASTFacts &Facts;
  EditPlan &Plan;
  CodeGenOptions Opts;
  bool Failed = false;

  std::vector<TaskCode> Tasks;
  std::vector<const RawDirective *> TaskPragma; ///< per task: the pragma (for #line of its support code)
  std::map<const clang::FunctionDecl *, size_t> DeclTasks; ///< canonical decl -> task
  std::map<const clang::FunctionDecl *, std::string> DeclTaskText;
  std::map<const clang::CallExpr *, size_t> CallSiteTasks;
  std::set<const clang::FunctionDecl *> CudaFunctions; ///< canonical decls
  std::set<size_t> SupportEmitted;
  std::set<std::string> UsedIds;

  // ------------------------------------------------------------ diagnostics
  template <unsigned N, typename... Args>
  void error(SourceLocation Loc, const char (&Format)[N], const Args &...A) {
    unsigned ID = Diags.getCustomDiagID(clang::DiagnosticsEngine::Error, Format);
    auto Builder = Diags.Report(Loc, ID);
    ((Builder << llvm::StringRef(A)), ...);
    Failed = true;
  }
  template <unsigned N, typename... Args>
  void note(SourceLocation Loc, const char (&Format)[N], const Args &...A) {
    unsigned ID = Diags.getCustomDiagID(clang::DiagnosticsEngine::Note, Format);
    auto Builder = Diags.Report(Loc, ID);
    ((Builder << llvm::StringRef(A)), ...);
  }

  // ------------------------------------------------------------ locations
  SourceLocation fileLoc(SourceLocation L) const { return SM.getExpansionLoc(L); }

  static bool isConditionalDirective(llvm::StringRef Rest) {
    Rest = Rest.ltrim(" \t");
    for (llvm::StringRef Name : {"ifdef", "ifndef", "if", "elifdef", "elifndef", "elif", "else", "endif"})
      if (Rest.starts_with(Name) && (Rest.size() == Name.size() || !std::isalnum(Rest[Name.size()])))
        return true;
    return false;
  }

  /// Only whitespace, comments and conditional-inclusion lines between From
  /// and To (same file).
  bool onlyTrivia(SourceLocation From, SourceLocation To) const {
    From = fileLoc(From);
    To = fileLoc(To);
    auto [FromFile, FromOff] = SM.getDecomposedLoc(From);
    auto [ToFile, ToOff] = SM.getDecomposedLoc(To);
    if (FromFile != ToFile || FromOff > ToOff) return false;
    llvm::StringRef Buffer = SM.getBufferData(FromFile);
    for (unsigned I = FromOff; I < ToOff;) {
      char C = Buffer[I];
      if (C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' || C == '\v') {
        ++I;
      } else if (C == '/' && I + 1 < ToOff && Buffer[I + 1] == '/') {
        while (I < ToOff && Buffer[I] != '\n')
          ++I;
      } else if (C == '/' && I + 1 < ToOff && Buffer[I + 1] == '*') {
        size_t End = Buffer.find("*/", I + 2);
        if (End == llvm::StringRef::npos || End + 2 > ToOff) return false;
        I = static_cast<unsigned>(End + 2);
      } else if (C == '\\' && I + 1 < ToOff && (Buffer[I + 1] == '\n' || Buffer[I + 1] == '\r')) {
        I += 2;
      } else if (C == '#' && isConditionalDirective(Buffer.substr(I + 1))) {
        // #if/#ifdef/#else/#endif around a directive (e.g. a target only
        // for CUDA builds): skip the line, with its continuations.
        while (I < ToOff && Buffer[I] != '\n')
          I += (Buffer[I] == '\\' && I + 1 < ToOff) ? 2 : 1;
      } else {
        return false;
      }
    }
    return true;
  }

  std::string fileName(SourceLocation L) const {
    clang::PresumedLoc P = SM.getPresumedLoc(fileLoc(L));
    return P.isValid() ? P.getFilename() : "";
  }
  unsigned lineOf(SourceLocation L) const {
    clang::PresumedLoc P = SM.getPresumedLoc(fileLoc(L));
    return P.isValid() ? P.getLine() : 0;
  }
  bool inMainFile(SourceLocation L) const { return L.isValid() && L.isFileID() && SM.isInMainFile(L); }

  std::string sourceText(clang::CharSourceRange R) const {
    return clang::Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  }

  // ------------------------------------------------------------ names
  bool isKnown(const NameScope &S, const std::string &Name) const {
    if (S.Raw->MacrosDefined.count(Name) || Facts.FileScopeNames.count(Name)) return true;
    if (S.TaskFn)
      for (const clang::ParmVarDecl *P : S.TaskFn->parameters())
        if (P->getName() == Name) return true;
    // Template parameters are in scope where the generated code uses the
    // name: in the template's own helpers, or inline in the caller's body.
    for (const clang::FunctionDecl *FD : {S.TaskFn, S.Enclosing})
      if (const clang::FunctionTemplateDecl *Template = FD ? FD->getDescribedFunctionTemplate() : nullptr)
        for (const clang::NamedDecl *P : *Template->getTemplateParameters())
          if (P->getName() == Name) return true;
    return S.Enclosing && lookupLocal(S, Name);
  }

  const clang::ValueDecl *lookupLocal(const NameScope &S, const std::string &Name) const {
    const clang::ValueDecl *Found = nullptr;
    auto It = Facts.Locals.find(S.Enclosing);
    if (It != Facts.Locals.end())
      for (const clang::VarDecl *V : It->second)
        if (V->getName() == Name && SM.getFileOffset(fileLoc(V->getLocation())) < S.AtOffset) Found = V;
    if (Found) return Found;
    for (const clang::ParmVarDecl *P : S.Enclosing->parameters())
      if (P->getName() == Name) return P;
    return nullptr;
  }

  std::optional<BaseInfo> lookupBase(const NameScope &S, const std::string &Name) const {
    BaseInfo B;
    B.Name = Name;
    if (S.TaskFn) {
      for (unsigned I = 0; I < S.TaskFn->getNumParams(); ++I) {
        const clang::ParmVarDecl *P = S.TaskFn->getParamDecl(I);
        if (P->getName() == Name) {
          B.Type = P->getType();
          B.Original = P->getOriginalType();
          B.IsParm = true;
          B.ParamIndex = static_cast<int>(I);
          return B;
        }
      }
      return std::nullopt;
    }
    const clang::ValueDecl *V = lookupLocal(S, Name);
    if (!V) {
      auto It = Facts.FileScopeVars.find(Name);
      if (It != Facts.FileScopeVars.end()) V = It->second;
    }
    if (!V) return std::nullopt;
    B.Var = V;
    B.Type = V->getType();
    B.Original = V->getType();
    if (const auto *P = llvm::dyn_cast<clang::ParmVarDecl>(V)) {
      B.IsParm = true;
      B.Original = P->getOriginalType();
    }
    return B;
  }

  bool checkExprNames(const NameScope &S, const ExprText &E) {
    bool Ok = true;
    for (const ExprName &N : E.Names)
      if (!isKnown(S, N.Name)) {
        if (E.Text == N.Name)
          error(S.Raw->locationOf(N.Offset), "unknown name '%0'", N.Name);
        else
          error(S.Raw->locationOf(N.Offset), "unknown name '%0' in '%1'", N.Name, E.Text);
        Ok = false;
      }
    return Ok;
  }

  bool checkItemNames(const NameScope &S, const Item &It) {
    bool Ok = true;
    for (const Dimension &D : It.Dims) {
      Ok &= checkExprNames(S, D.First);
      if (D.K != Dimension::Extent) Ok &= checkExprNames(S, D.Second);
    }
    return Ok;
  }

  std::optional<BaseInfo> resolveBase(const NameScope &S, const Item &It) {
    std::optional<BaseInfo> B = lookupBase(S, It.Name);
    if (B) return B;
    SourceLocation Loc = S.Raw->locationOf(It.Offset);
    if (S.TaskFn && isKnown(S, It.Name))
      error(Loc, "'%0' is not a parameter of '%1'", It.Name, S.TaskFn->getNameAsString());
    else
      error(Loc, "unknown name '%0'", It.Name);
    return std::nullopt;
  }

  // ------------------------------------------------------------ types
  std::string printType(clang::QualType T, const std::string &Name = "") const {
    clang::PrintingPolicy Policy(Ctx.getLangOpts());
    Policy.FullyQualifiedName = true;
    Policy.SuppressScope = false;
    Policy.SuppressUnwrittenScope = true;
    Policy.Bool = Ctx.getLangOpts().CPlusPlus || Ctx.getLangOpts().C23;
    std::string S;
    llvm::raw_string_ostream OS(S);
    T.print(OS, Policy, Name);
    return S;
  }

  static bool isScalar(clang::QualType T) { return !T->isPointerType() && !T->isArrayType(); }

  static std::string paren(const std::string &E) { return "(" + E + ")"; }
  static std::string count(const std::string &E) { return "(size_t)(" + E + ")"; }

  /// Region of an item whose base is a pointer or an array.
  std::optional<RegionCode> buildRegion(const NameScope &S, const Item &It, const BaseInfo &B) {
    SourceLocation Loc = S.Raw->locationOf(It.Offset);
    const std::string &N = B.Name;
    clang::QualType T = B.Type;
    if (!T->isPointerType() && !T->isArrayType()) {
      // A variable named at a call site or in `wait on`: the variable itself.
      if (!It.Dims.empty()) {
        error(S.Raw->locationOf(It.Dims.front().Offset), "dimensions on '%0', which is a scalar of type '%1'",
              N, printType(T));
        return std::nullopt;
      }
      RegionCode R;
      R.Base = "&" + N;
      R.Bytes = "sizeof " + N;
      return R;
    }
    clang::QualType Pointee;
    std::string Whole;
    if (const clang::ArrayType *AT = Ctx.getAsArrayType(T)) {
      Pointee = AT->getElementType();
      if (llvm::isa<clang::ConstantArrayType>(AT) || llvm::isa<clang::VariableArrayType>(AT))
        Whole = "sizeof " + N;
    } else {
      Pointee = T->getPointeeType();
      const clang::ConstantArrayType *OrigArray = Ctx.getAsConstantArrayType(B.Original);
      if (B.IsParm && OrigArray)
        Whole = "(size_t)" + std::to_string(OrigArray->getSize().getZExtValue()) + " * sizeof(*" + N + ")";
      else if (!Pointee->isIncompleteType() && !Pointee->isFunctionType() && !Pointee->isVoidType())
        Whole = "sizeof(*" + N + ")";
    }
    if (Pointee->isVoidType() || Pointee->isIncompleteType() || Pointee->isFunctionType()) {
      error(Loc, "cannot tell the size of what '%0' points to (type '%1'); use a typed pointer", N,
            printType(T));
      return std::nullopt;
    }
    RegionCode R;
    if (It.Dims.empty()) {
      if (Whole.empty()) {
        error(Loc, "cannot tell the size of '%0'; give its dimensions, e.g. '%0[n]'", N);
        return std::nullopt;
      }
      R.Base = N;
      R.Bytes = Whole;
      return R;
    }
    unsigned Rank = 0;
    for (clang::QualType P = Pointee; const clang::ArrayType *AT = Ctx.getAsArrayType(P);
         P = AT->getElementType())
      ++Rank;
    auto lowAndLength = [](const Dimension &D, std::string &Lo, std::string &Len) {
      if (D.K == Dimension::Extent) {
        Lo = "";
        Len = D.First.Text;
      } else if (D.K == Dimension::Length) {
        Lo = D.First.Text;
        Len = D.Second.Text;
      } else {
        Lo = D.First.Text;
        Len = paren(D.Second.Text) + " - " + paren(D.First.Text) + " + 1";
      }
    };
    if (Rank == 0) {
      if (!It.hasSection()) {
        // name[e1][e2]...: e1*e2*... consecutive elements.
        std::string Bytes;
        for (const Dimension &D : It.Dims)
          Bytes += count(D.First.Text) + " * ";
        R.Base = N;
        R.Bytes = Bytes + "sizeof(*" + N + ")";
        return R;
      }
      if (It.Dims.size() > 1) {
        error(S.Raw->locationOf(It.Dims[1].Offset),
              "sections in more than one dimension need a pointer to arrays, such as 'double (*%0)[N]'", N);
        return std::nullopt;
      }
      std::string Lo, Len;
      lowAndLength(It.Dims[0], Lo, Len);
      R.Base = paren(N) + " + " + paren(Lo);
      R.Bytes = count(Len) + " * sizeof(*" + N + ")";
      return R;
    }
    if (It.Dims.size() > Rank + 1) {
      error(S.Raw->locationOf(It.Dims[Rank + 1].Offset), "too many dimensions for '%0' of type '%1'", N,
            printType(T));
      return std::nullopt;
    }
    for (size_t I = 2; I < It.Dims.size(); ++I)
      if (It.Dims[I].K != Dimension::Extent) {
        error(S.Raw->locationOf(It.Dims[I].Offset),
              "sections are supported in the first two dimensions only; give the full extent here");
        return std::nullopt;
      }
    std::string Lo1, Len1;
    lowAndLength(It.Dims[0], Lo1, Len1);
    if (It.Dims.size() < 2 || It.Dims[1].K == Dimension::Extent) {
      R.Base = Lo1.empty() ? N : paren(N) + " + " + paren(Lo1);
      R.Bytes = count(Len1) + " * sizeof(*" + N + ")";
      return R;
    }
    std::string Lo2, Len2;
    lowAndLength(It.Dims[1], Lo2, Len2);
    R.Base = "(void *)&" + paren(N) + "[" + (Lo1.empty() ? "0" : Lo1) + "][" + Lo2 + "]";
    R.RowBytes = count(Len2) + " * sizeof(" + paren(N) + "[0][0])";
    R.Rows = count(Len1);
    R.Stride = "sizeof(*" + N + ")";
    return R;
  }

  // ------------------------------------------------------------ tasks
  static const clang::ValueDecl *argVariable(const clang::Expr *Arg) {
    Arg = Arg->IgnoreParenImpCasts();
    if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Arg); U && U->getOpcode() == clang::UO_AddrOf)
      Arg = U->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *DR = llvm::dyn_cast<clang::DeclRefExpr>(Arg)) return DR->getDecl();
    return nullptr;
  }

  bool checkTaskFunction(const clang::FunctionDecl *FD, SourceLocation UseLoc) {
    if (!FD->getReturnType()->isVoidType()) {
      error(UseLoc, "task function '%0' returns a value (of type '%1'); task functions must return void",
            FD->getNameAsString(), printType(FD->getReturnType()));
      if (UseLoc != FD->getLocation()) note(FD->getLocation(), "'%0' declared here", FD->getNameAsString());
      return false;
    }
    if (llvm::isa<clang::CXXMethodDecl>(FD)) {
      error(UseLoc, "member function '%0' cannot be a task; use a free function", FD->getNameAsString());
      return false;
    }
    if (FD->isVariadic()) {
      error(UseLoc, "variadic function '%0' cannot be a task", FD->getNameAsString());
      return false;
    }
    for (const clang::ParmVarDecl *P : FD->parameters()) {
      clang::QualType T = P->getType();
      if (P->isParameterPack()) {
        error(P->getLocation(),
              "parameter pack '%0' of task function '%1': a task needs a fixed list of parameters",
              P->getNameAsString(), FD->getNameAsString());
        return false;
      }
      // A type that depends on template parameters is checked when the
      // template is instantiated (a static_assert in the generated code).
      bool Copyable = !Ctx.getLangOpts().CPlusPlus || T->isDependentType() || T.isTriviallyCopyableType(Ctx);
      if (T->isReferenceType() || !Copyable || T->isVariablyModifiedType()) {
        error(P->getLocation(),
              "parameter '%0' of task function '%1' has type '%2', which cannot be copied into "
              "a task (use a pointer or a trivially copyable value)",
              P->getNameAsString(), FD->getNameAsString(), printType(T));
        return false;
      }
    }
    return true;
  }

  /// The template head and arguments of a task function template, for the
  /// generated code (TaskModel.h); the trampoline names the function with
  /// explicit arguments.
  bool describeTemplate(const clang::FunctionTemplateDecl *Template, TaskCode &Code) {
    std::string Head, Args;
    std::string Function = Template->getNameAsString();
    for (const clang::NamedDecl *P : *Template->getTemplateParameters()) {
      std::string Name = P->getNameAsString();
      if (P->isTemplateParameterPack()) {
        error(P->getLocation(),
              "template parameter pack '%0' of task function '%1': a task needs a fixed list of "
              "template parameters",
              Name, Function);
        return false;
      }
      if (Name.empty()) {
        error(P->getLocation(), "unnamed template parameter of task function '%0'; give it a name", Function);
        return false;
      }
      std::string Declared;
      bool HasDefault = false;
      if (const auto *Type = llvm::dyn_cast<clang::TemplateTypeParmDecl>(P)) {
        Declared = "typename " + Name;
        HasDefault = Type->hasDefaultArgument();
      } else if (const auto *Value = llvm::dyn_cast<clang::NonTypeTemplateParmDecl>(P)) {
        Declared = printType(Value->getType(), Name);
        HasDefault = Value->hasDefaultArgument();
      } else {
        error(P->getLocation(), "template template parameter '%0' of task function '%1' is not supported",
              Name, Function);
        return false;
      }
      if (HasDefault) {
        error(P->getLocation(),
              "default argument of template parameter '%0' of task function '%1' is not supported; "
              "name the argument at the calls or let it be deduced",
              Name, Function);
        return false;
      }
      Head += (Head.empty() ? "" : ", ") + Declared;
      Args += (Args.empty() ? "" : ", ") + Name;
    }
    Code.TemplateHead = "template <" + Head + ">";
    Code.TemplateArgs = "<" + Args + ">";
    Code.Callee += Code.TemplateArgs;
    for (const ParamCode &P : Code.Params)
      if (P.CopyableUnknown) Code.DependentParamTypes.push_back(P.TypeName);
    return true;
  }

  std::string uniqueId(std::string Base) {
    std::string Id = Base;
    for (int N = 2; !UsedIds.insert(Id).second; ++N)
      Id = Base + "_" + std::to_string(N);
    return Id;
  }

  std::string calleeSpelling(const clang::FunctionDecl *FD) const {
    if (!Ctx.getLangOpts().CPlusPlus) return FD->getNameAsString();
    return scopeOf(FD->getDeclContext()) + FD->getNameAsString();
  }

  /// "::a::b::" for the named namespaces around DC (C++), "" in C.
  std::string scopeOf(const clang::DeclContext *DC) const {
    if (!Ctx.getLangOpts().CPlusPlus) return "";
    std::string S;
    for (; DC && !DC->isTranslationUnit(); DC = DC->getParent())
      if (const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(DC); NS && !NS->isAnonymousNamespace())
        S = NS->getNameAsString() + "::" + S;
    return "::" + S;
  }

  /// Builds the model of a task. `FD` names the parameters (declaration
  /// pragma) or is the callee (call-site pragma, `Call` set).
  bool buildTask(const clang::FunctionDecl *FD, const ParsedDirective *Task, const ParsedDirective *Target,
                 const NameScope &Scope, const clang::CallExpr *Call, TaskCode &Code) {
    Code.Label = FD->getNameAsString();
    Code.Callee = calleeSpelling(FD);
    // A call-site task of a template's specialization: name it with its
    // arguments, which the trampoline's arguments may not deduce.
    if (const clang::TemplateArgumentList *TemplateArgs =
            Call ? FD->getTemplateSpecializationArgs() : nullptr) {
      std::string Printed;
      llvm::raw_string_ostream OS(Printed);
      clang::printTemplateArgumentList(OS, TemplateArgs->asArray(), Ctx.getPrintingPolicy());
      Code.Callee += OS.str();
    }
    Code.Cuda = Target && Target->D.Target.Device == DeviceKind::Cuda;
    Code.HighPriority = Task->D.Task.HighPriority;
    Code.Clauses = "#pragma css " + Task->Raw->Text;
    if (Target) Code.Clauses += " / #pragma css " + Target->Raw->Text;
    Code.Clauses = sanitizeComment(Code.Clauses);

    // By-value arguments at a call site: the variables passed as scalars.
    std::set<const clang::ValueDecl *> ByValueVars;
    if (Call)
      for (unsigned I = 0; I < Call->getNumArgs() && I < FD->getNumParams(); ++I)
        if (isScalar(FD->getParamDecl(I)->getType()))
          if (const auto *DR = llvm::dyn_cast<clang::DeclRefExpr>(Call->getArg(I)->IgnoreParenImpCasts()))
            ByValueVars.insert(DR->getDecl());

    std::vector<PendingAccess> Pending;
    bool Ok = true;
    auto addItem = [&](const NameScope &ItemScope, const Item &It, const char *Direction,
                       const char *ClauseText, unsigned CopyBits, bool FromCopy) {
      std::optional<BaseInfo> B = resolveBase(ItemScope, It);
      if (!B) {
        Ok = false;
        return;
      }
      if (!checkItemNames(ItemScope, It)) {
        Ok = false;
        return;
      }
      bool ByValue = (Scope.TaskFn && isScalar(B->Type)) || (B->Var && ByValueVars.count(B->Var));
      if (ByValue) {
        if (!It.Dims.empty()) {
          error(ItemScope.Raw->locationOf(It.Dims.front().Offset),
                "dimensions on '%0', which is a scalar passed by value (type '%1')", It.Name,
                printType(B->Type));
          Ok = false;
          return;
        }
        if (std::string(Direction) != rt::DirIn) {
          error(ItemScope.Raw->locationOf(It.Offset),
                "'%0' is passed by value and cannot be named in '%1'; pass a pointer to it instead", It.Name,
                ClauseText);
          Ok = false;
        }
        return; // an input scalar: copied into the task, no access
      }
      for (PendingAccess &P : Pending)
        if (P.It->Text == It.Text) {
          if (FromCopy) {
            P.CopyBits |= CopyBits;
          } else if (P.Direction != Direction) {
            P.Direction = rt::DirInout;
          }
          return;
        }
      PendingAccess P;
      P.It = &It;
      P.Raw = ItemScope.Raw;
      P.Base = *B;
      P.Direction = Direction;
      P.CopyBits = CopyBits;
      Pending.push_back(P);
    };
    for (const Clause &C : Task->D.Task.Clauses) {
      const char *Dir = C.Kind == ClauseKind::Input    ? rt::DirIn
                        : C.Kind == ClauseKind::Output ? rt::DirOut
                                                       : rt::DirInout;
      for (const Item &It : C.Items)
        addItem(Scope, It, Dir, clauseName(C.Kind), 0, false);
    }
    bool Explicit = Target && !Target->D.Target.Copies.empty();
    if (Target) {
      NameScope TargetScope = Scope;
      TargetScope.Raw = Target->Raw;
      for (const Clause &C : Target->D.Target.Copies) {
        unsigned Bits = C.Kind == ClauseKind::CopyIn    ? CopyInBit
                        : C.Kind == ClauseKind::CopyOut ? CopyOutBit
                                                        : CopyInBit | CopyOutBit;
        const char *Dir = C.Kind == ClauseKind::CopyIn    ? rt::DirIn
                          : C.Kind == ClauseKind::CopyOut ? rt::DirOut
                                                          : rt::DirInout;
        for (const Item &It : C.Items)
          addItem(TargetScope, It, Dir, clauseName(C.Kind), Bits, true);
      }
    }
    if (!Ok) return false;

    // Regions of one base are reached through one pointer: the runtime
    // keeps them in one storage (css_access::group).
    auto SameBase = [](const BaseInfo &A, const BaseInfo &B) {
      if (A.ParamIndex >= 0 || B.ParamIndex >= 0) return A.ParamIndex == B.ParamIndex;
      return A.Var != nullptr && A.Var == B.Var;
    };
    for (const PendingAccess &P : Pending) {
      NameScope ItemScope = Scope;
      ItemScope.Raw = P.Raw;
      std::optional<RegionCode> R = buildRegion(ItemScope, *P.It, P.Base);
      if (!R) {
        Ok = false;
        continue;
      }
      AccessCode A;
      A.ItemText = sanitizeComment(P.It->Text) + ": " + P.Direction;
      A.Region = *R;
      A.Direction = P.Direction;
      for (size_t J = 0; J < Pending.size(); ++J)
        if (SameBase(Pending[J].Base, P.Base)) {
          A.Group = static_cast<unsigned>(J) + 1;
          break;
        }
      if (!Explicit) {
        A.Copy = rt::CopyDefault;
      } else {
        A.Copy = rt::CopyExplicit;
        if (P.CopyBits & CopyInBit) A.Copy += std::string(" | ") + rt::CopyIn;
        if (P.CopyBits & CopyOutBit) A.Copy += std::string(" | ") + rt::CopyOut;
      }
      Code.Accesses.push_back(A);
    }
    if (!Ok) return false;

    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      const clang::ParmVarDecl *P = FD->getParamDecl(I);
      ParamCode PC;
      PC.Name = P->getName().empty() ? std::string(rt::LocalPrefix) + "p" + std::to_string(I)
                                     : P->getNameAsString();
      clang::QualType T = P->getType().getUnqualifiedType();
      PC.Declarator = printType(T, PC.Name);
      PC.TypeName = printType(T);
      PC.CopyableUnknown = T->isDependentType() && !T->isPointerType();
      if (T->isPointerType()) {
        const clang::ValueDecl *ArgVar =
            Call && I < Call->getNumArgs() ? argVariable(Call->getArg(I)) : nullptr;
        for (size_t A = 0; A < Pending.size(); ++A) {
          bool Match =
              Call ? (ArgVar && Pending[A].Base.Var == ArgVar) : Pending[A].Base.ParamIndex == (int)I;
          if (Match) {
            PC.Access = static_cast<int>(A);
            break;
          }
        }
      }
      Code.Params.push_back(PC);
    }
    return true;
  }

  /// The declaration or statement right after a directive group.
  void attachTask(ParsedDirective *Task, ParsedDirective *Target, const RawDirective *Last) {
    SourceLocation End = fileLoc(Last->End);
    auto [File, Off] = SM.getDecomposedLoc(End);
    const clang::Decl *BestDecl = nullptr;
    const clang::Stmt *BestStmt = nullptr;
    unsigned BestOff = ~0u;
    for (const clang::Decl *D : Facts.Decls) {
      auto [F, O] = SM.getDecomposedLoc(fileLoc(D->getBeginLoc()));
      if (F == File && O >= Off && O < BestOff) {
        BestOff = O;
        BestDecl = D;
      }
    }
    for (const clang::Stmt *S : Facts.Stmts) {
      auto [F, O] = SM.getDecomposedLoc(fileLoc(S->getBeginLoc()));
      if (F == File && O >= Off && O < BestOff) {
        BestOff = O;
        BestStmt = S;
        BestDecl = nullptr;
      }
    }
    SourceLocation BestLoc = BestOff == ~0u ? SourceLocation() : SM.getComposedLoc(File, BestOff);
    if ((!BestDecl && !BestStmt) || !onlyTrivia(End, BestLoc)) {
      error(Task->Raw->NameLoc, "a task directive must be followed by a function declaration, a function "
                                "definition or a statement that calls a function");
      return;
    }
    if (BestDecl) {
      const auto *Template = llvm::dyn_cast<clang::FunctionTemplateDecl>(BestDecl);
      const auto *FD =
          Template ? Template->getTemplatedDecl() : llvm::dyn_cast<clang::FunctionDecl>(BestDecl);
      if (!FD) {
        error(fileLoc(BestDecl->getBeginLoc()),
              "a task directive must be followed by a function declaration, a "
              "function definition or a call; this declares something else");
        note(Task->Raw->NameLoc, "task directive here");
        return;
      }
      if (!checkTaskFunction(FD, FD->getLocation())) return;
      const clang::FunctionDecl *Canon = FD->getCanonicalDecl();
      std::string Text = Task->Raw->Text + (Target ? "|" + Target->Raw->Text : "");
      if (auto It = DeclTaskText.find(Canon); It != DeclTaskText.end()) {
        if (It->second != Text) {
          error(Task->Raw->NameLoc, "'%0' already has different task directives", FD->getNameAsString());
          return;
        }
        commentOut(Task, Target);
        return; // the same directives on another declaration
      }
      NameScope Scope;
      Scope.Raw = Task->Raw;
      Scope.TaskFn = FD;
      TaskCode Code;
      if (!buildTask(FD, Task, Target, Scope, nullptr, Code)) return;
      if (Template && !describeTemplate(Template, Code)) return;
      Code.Id = uniqueId(FD->getNameAsString());
      DeclTasks[Canon] = Tasks.size();
      DeclTaskText[Canon] = Text;
      if (Code.Cuda) CudaFunctions.insert(Canon);
      Tasks.push_back(std::move(Code));
      TaskPragma.push_back(Task->Raw);
      commentOut(Task, Target);
      return;
    }
    // A statement: it must be a call of a function.
    const clang::Stmt *S = BestStmt;
    const clang::CallExpr *Call = nullptr;
    if (const auto *E = llvm::dyn_cast<clang::Expr>(S))
      Call = llvm::dyn_cast<clang::CallExpr>(E->IgnoreImplicit()->IgnoreParens());
    if (!Call ||
        llvm::isa<clang::CXXMemberCallExpr, clang::CXXOperatorCallExpr, clang::CUDAKernelCallExpr>(Call) ||
        !Call->getDirectCallee()) {
      error(fileLoc(S->getBeginLoc()),
            "a task directive must be followed by a function declaration, a function "
            "definition or a statement that calls a function; this statement is not "
            "a function call");
      note(Task->Raw->NameLoc, "task directive here");
      return;
    }
    const clang::FunctionDecl *FD = Call->getDirectCallee();
    if (!checkTaskFunction(FD, fileLoc(Call->getBeginLoc()))) return;
    NameScope Scope;
    Scope.Raw = Task->Raw;
    auto Fn = Facts.StmtFunction.find(S);
    Scope.Enclosing = Fn == Facts.StmtFunction.end() ? nullptr : Fn->second;
    Scope.AtOffset = SM.getFileOffset(fileLoc(Call->getBeginLoc()));
    if (!Scope.Enclosing) return;
    TaskCode Code;
    if (!buildTask(FD, Task, Target, Scope, Call, Code)) return;
    Code.Id = uniqueId(FD->getNameAsString() + "_l" + std::to_string(lineOf(Call->getBeginLoc())));
    if (Code.Cuda) CudaFunctions.insert(FD->getCanonicalDecl());
    CallSiteTasks[Call] = Tasks.size();
    Tasks.push_back(std::move(Code));
    TaskPragma.push_back(Task->Raw);
    commentOut(Task, Target);
  }

  void commentOut(const ParsedDirective *A, const ParsedDirective *B) {
    for (const ParsedDirective *P : {A, B})
      if (P) replaceDirective(*P->Raw, "");
  }

  /// Replaces a `#pragma css` directive of the main file with `Code` and a
  /// comment holding the directive.
  bool replaceDirective(const RawDirective &R, const std::string &Code) {
    if (!inMainFile(R.Begin) || !R.End.isFileID()) return false;
    clang::CharSourceRange Range = clang::CharSourceRange::getCharRange(R.Begin, R.End);
    std::string Text = sourceText(Range);
    if (Text.empty() || Text[0] != '#') return false;
    Plan.Replacements.push_back({Range, (Code.empty() ? "" : Code + " ") + genComment(Text)});
    return true;
  }

  const clang::FunctionDecl *functionAround(SourceLocation L) const {
    L = fileLoc(L);
    const clang::FunctionDecl *Best = nullptr;
    for (const clang::FunctionDecl *FD : Facts.Definitions) {
      const clang::Stmt *Body = FD->getBody();
      if (!Body) continue;
      SourceLocation B = fileLoc(Body->getBeginLoc()), E = fileLoc(Body->getEndLoc());
      if (SM.getFileID(B) != SM.getFileID(L)) continue;
      if (SM.getFileOffset(B) < SM.getFileOffset(L) && SM.getFileOffset(L) < SM.getFileOffset(E)) Best = FD;
    }
    return Best;
  }

  void handleSync(const ParsedDirective &P) {
    const RawDirective &R = *P.Raw;
    if (!inMainFile(fileLoc(R.Begin))) return; // synchronisation in a header is not translated
    const clang::FunctionDecl *FD = functionAround(R.Begin);
    if (!FD) {
      error(R.NameLoc, "'#pragma css %0' must be inside a function body", directiveName(P.D.Kind));
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
      Scope.AtOffset = SM.getFileOffset(fileLoc(R.Begin));
      std::vector<RegionCode> Regions;
      bool Ok = true;
      for (const Item &It : P.D.Wait.Items) {
        std::optional<BaseInfo> B = resolveBase(Scope, It);
        if (!B || !checkItemNames(Scope, It)) {
          Ok = false;
          continue;
        }
        std::optional<RegionCode> Region = buildRegion(Scope, It, *B);
        if (!Region) {
          Ok = false;
          continue;
        }
        Regions.push_back(*Region);
      }
      if (!Ok) return;
      Code = genWaitOn(Regions);
      break;
    }
    default:
      return;
    }
    if (!replaceDirective(R, Code)) {
      error(R.NameLoc, "'#pragma css %0' must be written as a #pragma line of the main file",
            directiveName(P.D.Kind));
      return;
    }
    Plan.UsesRuntime = true;
  }

  // ------------------------------------------------------------ call sites
  void emitSupport(size_t TaskIndex, const CallSite &Site, bool SubmitHelper) {
    if (!SupportEmitted.insert(TaskIndex).second) return;
    TaskCode &Code = Tasks[TaskIndex];
    const clang::Decl *Top = Site.TopDecl ? Site.TopDecl : Site.Enclosing;
    SourceLocation Loc = fileLoc(Top->getBeginLoc());
    Code.Scope = scopeOf(Top->getDeclContext());
    std::string Text;
    if (SM.getPresumedColumnNumber(Loc) != 1) Text += "\n";
    const RawDirective *Pragma = TaskPragma[TaskIndex];
    Text += genLineDirective(lineOf(Pragma->Begin), fileName(Pragma->Begin));
    Text += genTaskSupport(Code, SubmitHelper, Opts);
    Text += genLineDirective(lineOf(Loc), fileName(Loc));
    Plan.Insertions.push_back({Loc, Text});
  }

  bool checkNoMacro(const clang::CallExpr *Call, const std::string &Function) {
    if (Call->getBeginLoc().isMacroID() || Call->getEndLoc().isMacroID() ||
        Call->getRParenLoc().isMacroID() || Call->getCallee()->getBeginLoc().isMacroID()) {
      error(fileLoc(Call->getBeginLoc()),
            "a call of task function '%0' inside a macro expansion cannot be "
            "translated; write the call outside the macro",
            Function);
      return false;
    }
    for (const clang::Expr *Arg : Call->arguments())
      if (llvm::isa<clang::CXXDefaultArgExpr>(Arg)) {
        error(fileLoc(Call->getBeginLoc()),
              "write every argument of task function '%0' at the call (default "
              "arguments are not supported)",
              Function);
        return false;
      }
    return true;
  }

  /// The task (declaration pragma) a call names, if any. In a template, a
  /// call whose arguments depend on template parameters is resolved only
  /// at instantiation; it names the task when every function its name may
  /// mean is that task's (the submit helper then stands in for all of
  /// them). Where the name also means other functions, whether the call
  /// is a task is unknown: an error, not an ordinary call that would race
  /// with the tasks in flight.
  std::optional<size_t> declaredTaskCalled(const clang::CallExpr *Call) {
    auto taskOf = [&](const clang::FunctionDecl *FD) -> std::optional<size_t> {
      if (const clang::FunctionTemplateDecl *Template = FD->getPrimaryTemplate())
        FD = Template->getTemplatedDecl();
      auto It = DeclTasks.find(FD->getCanonicalDecl());
      return It == DeclTasks.end() ? std::nullopt : std::optional<size_t>(It->second);
    };
    if (const clang::FunctionDecl *FD = Call->getDirectCallee()) return taskOf(FD);
    const auto *Lookup =
        llvm::dyn_cast<clang::UnresolvedLookupExpr>(Call->getCallee()->IgnoreParenImpCasts());
    if (!Lookup) return std::nullopt;
    std::set<std::optional<size_t>> Meanings;
    for (const clang::NamedDecl *D : Lookup->decls()) {
      D = D->getUnderlyingDecl();
      if (const auto *Template = llvm::dyn_cast<clang::FunctionTemplateDecl>(D))
        D = Template->getTemplatedDecl();
      const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D);
      Meanings.insert(FD ? taskOf(FD) : std::nullopt);
    }
    if (Meanings.size() == 1) return *Meanings.begin();
    for (const std::optional<size_t> &Task : Meanings)
      if (Task) {
        error(fileLoc(Call->getBeginLoc()),
              "this call in a template may call task function '%0' or another function of that name, "
              "depending on the template's arguments; give the task function a name of its own",
              Tasks[*Task].Label);
        break;
      }
    return std::nullopt;
  }

  void planCalls() {
    for (const CallSite &Site : Facts.Calls) {
      if (auto It = CallSiteTasks.find(Site.Call); It != CallSiteTasks.end()) {
        if (!checkNoMacro(Site.Call, Tasks[It->second].Label)) continue;
        emitSupport(It->second, Site, false);
        const TaskCode &Code = Tasks[It->second];
        std::vector<std::string> Args;
        for (const clang::Expr *Arg : Site.Call->arguments())
          Args.push_back(sourceText(clang::CharSourceRange::getTokenRange(Arg->getSourceRange())));
        SourceLocation Loc = fileLoc(Site.Call->getBeginLoc());
        std::string Text = genCallSiteSubmit(Code, Args, fileName(Loc), lineOf(Loc), Opts);
        Text += "\n" + genLineDirective(lineOf(Site.Call->getEndLoc()), fileName(Loc));
        Plan.Replacements.push_back(
            {clang::CharSourceRange::getTokenRange(Site.Call->getSourceRange()), Text});
        Plan.UsesRuntime = true;
        continue;
      }
      if (std::optional<size_t> Task = declaredTaskCalled(Site.Call)) planDeclaredTaskCall(Site, *Task);
    }
  }

  /// A call of a function annotated at its declaration becomes a call of
  /// its submit helper, with the call's file and line appended.
  void planDeclaredTaskCall(const CallSite &Site, size_t TaskIndex) {
    if (Site.Enclosing && DeclTasks.count(Site.Enclosing->getCanonicalDecl()))
      return; // a task called inside a task body runs inline
    const TaskCode &Code = Tasks[TaskIndex];
    if (!checkNoMacro(Site.Call, Code.Label)) return;
    emitSupport(TaskIndex, Site, true);
    const clang::Expr *Callee = Site.Call->getCallee()->IgnoreParenImpCasts();
    SourceLocation Loc = fileLoc(Site.Call->getBeginLoc());
    // The qualified name only: explicit template arguments (`f<double>`)
    // stay, and name the helper's.
    clang::SourceRange Name = Callee->getSourceRange();
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Callee))
      Name.setEnd(Ref->getNameInfo().getEndLoc());
    else if (const auto *Lookup = llvm::dyn_cast<clang::UnresolvedLookupExpr>(Callee))
      Name.setEnd(Lookup->getNameInfo().getEndLoc());
    Plan.Replacements.push_back({clang::CharSourceRange::getTokenRange(Name), submitHelperName(Code, Opts)});
    Plan.Insertions.push_back(
        {Site.Call->getRParenLoc(),
         genSubmitHelperExtraArgs(fileName(Loc), lineOf(Loc), Site.Call->getNumArgs() > 0)});
    Plan.UsesRuntime = true;
  }

  void planKernelLaunches() {
    for (const CallSite &Site : Facts.KernelLaunches) {
      if (!Site.Enclosing || !CudaFunctions.count(Site.Enclosing->getCanonicalDecl())) continue;
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
                    const ASTFacts &Facts, EditPlan &Plan) {
  return Analyzer(Context, Directives, Facts, Plan).run();
}

} // namespace gpuss
