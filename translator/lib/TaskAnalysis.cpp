//===- TaskAnalysis.cpp - Attach directives to code, check them, plan edits ===//
#include "TaskAnalysis.h"

#include "CodeGen.h"
#include "PragmaParser.h"
#include "RuntimeSymbols.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
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
  std::vector<const clang::FunctionDecl *> TaskFunction;   ///< per task: the function it calls
  std::map<const clang::FunctionDecl *, size_t> DeclTasks; ///< canonical decl -> task
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

  /// Why a name is unknown, and where names come from.
  static std::string whereNamesCome(const NameScope &S) {
    if (S.TaskFn)
      return "; a clause may use the parameters of '" + S.TaskFn->getNameAsString() +
             "' and the macros, enumerators and globals declared before the pragma";
    return "; a clause here may use the variables in scope at the pragma, macros, enumerators and globals";
  }

  bool checkExprNames(const NameScope &S, const ExprText &E) {
    bool Ok = true;
    for (const ExprName &N : E.Names)
      if (!isKnown(S, N.Name)) {
        if (E.Text == N.Name)
          error(S.Raw->locationOf(N.Offset), "unknown name '%0'%1", N.Name, whereNamesCome(S));
        else
          error(S.Raw->locationOf(N.Offset), "unknown name '%0' in '%1'%2", N.Name, E.Text,
                whereNamesCome(S));
        Ok = false;
      }
    return Ok;
  }

  bool checkItemNames(const NameScope &S, const Item &It) {
    bool Ok = true;
    for (const ExprText &E : It.Shape)
      Ok &= checkExprNames(S, E);
    for (const std::vector<Dimension> *Dims : {&It.Dims, &It.Regions})
      for (const Dimension &D : *Dims) {
        Ok &= checkExprNames(S, D.First);
        Ok &= checkExprNames(S, D.Second);
      }
    return Ok;
  }

  std::optional<BaseInfo> resolveBase(const NameScope &S, const Item &It) {
    std::optional<BaseInfo> B = lookupBase(S, It.Name);
    if (B) return B;
    SourceLocation Loc = S.Raw->locationOf(It.Offset);
    if (S.TaskFn && isKnown(S, It.Name))
      error(Loc,
            "'%0' is not a parameter of '%1': a clause names the data the task reaches through its "
            "parameters; pass '%0' (or a pointer to it) as a parameter",
            It.Name, S.TaskFn->getNameAsString());
    else
      error(Loc, "unknown name '%0'%1", It.Name, whereNamesCome(S));
    return std::nullopt;
  }

  // ------------------------------------------------------------ types
  clang::PrintingPolicy policy() const {
    clang::PrintingPolicy Policy(Ctx.getLangOpts());
    Policy.FullyQualifiedName = true;
    Policy.SuppressScope = false;
    Policy.SuppressUnwrittenScope = true;
    Policy.Bool = Ctx.getLangOpts().CPlusPlus || Ctx.getLangOpts().C23;
    return Policy;
  }

  /// A type as the user wrote it (for messages).
  std::string printType(clang::QualType T, const std::string &Name = "") const {
    std::string S;
    llvm::raw_string_ostream OS(S);
    T.print(OS, policy(), Name);
    return S;
  }

  /// A type for the generated code, which stands at another scope than the
  /// declaration it comes from: in C++ every name in it is fully qualified
  /// (`::blocks::Affine`, `::std::complex<double>`).
  std::string genType(clang::QualType T, const std::string &Name = "") const {
    if (Ctx.getLangOpts().CPlusPlus)
      T = clang::TypeName::getFullyQualifiedType(T, Ctx, /*WithGlobalNsPrefix=*/true);
    return printType(T, Name);
  }

  std::string printExpr(const clang::Expr *E) const {
    std::string S;
    llvm::raw_string_ostream OS(S);
    E->printPretty(OS, nullptr, policy());
    return S;
  }

  /// The extent of an array type as a C expression: its size, or the size
  /// expression of a variable-length array; "" where unknown (`[]`, `[*]`).
  std::string extentOf(const clang::ArrayType *AT) const {
    if (const auto *C = llvm::dyn_cast<clang::ConstantArrayType>(AT))
      return std::to_string(C->getSize().getZExtValue());
    if (const auto *V = llvm::dyn_cast<clang::VariableArrayType>(AT))
      if (const clang::Expr *Size = V->getSizeExpr()) return printExpr(Size);
    return "";
  }

  static bool isScalar(clang::QualType T) { return !T->isPointerType() && !T->isArrayType(); }

  /// Whether the generated code can take sizeof(T): a complete type, or a
  /// class template specialization not instantiated yet (`std::array<double,
  /// 4>` named only in a prototype), which sizeof instantiates.
  static bool hasKnownSize(clang::QualType T) {
    if (T->isVoidType() || T->isFunctionType()) return false;
    if (!T->isIncompleteType()) return true;
    if (const auto *Spec =
            llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl()))
      return Spec->getSpecializedTemplate()->getTemplatedDecl()->hasDefinition();
    return false;
  }

  static std::string paren(const std::string &E) { return "(" + E + ")"; }
  static std::string count(const std::string &E) { return "(size_t)(" + E + ")"; }
  /// An extent from a type: a number needs no parentheses.
  static std::string countExtent(const std::string &E) {
    bool Number = !E.empty() && std::all_of(E.begin(), E.end(), [](char C) { return std::isdigit(C); });
    return Number ? "(size_t)" + E : count(E);
  }

  std::optional<RegionCode> buildRegion(const NameScope &S, const Item &It, const BaseInfo &B) {
    if (It.isClassic()) return buildClassicRegion(S, It, B);
    return buildShapedRegion(S, It, B);
  }

  /// The shape of what an item's base points to, as its type gives it.
  struct TypeShape {
    std::vector<std::string> Dims; ///< extents, outermost first; Dims[0] may be "" (unknown)
    unsigned Depth = 0;            ///< subscripts from the base to one scalar element
    clang::QualType Scalar;        ///< the element type
  };

  std::optional<TypeShape> typeShape(const BaseInfo &B) const {
    TypeShape Shape;
    clang::QualType T = B.Type, Elem;
    if (const clang::ArrayType *AT = Ctx.getAsArrayType(T)) {
      Shape.Dims.push_back(extentOf(AT));
      Elem = AT->getElementType();
    } else if (T->isPointerType()) {
      const clang::ArrayType *Orig = B.IsParm ? Ctx.getAsArrayType(B.Original) : nullptr;
      Shape.Dims.push_back(Orig ? extentOf(Orig) : "");
      Elem = T->getPointeeType();
    } else {
      return std::nullopt;
    }
    Shape.Depth = 1;
    while (const clang::ArrayType *AT = Ctx.getAsArrayType(Elem)) {
      Shape.Dims.push_back(extentOf(AT));
      Elem = AT->getElementType();
      ++Shape.Depth;
    }
    Shape.Scalar = Elem;
    return Shape;
  }

  /// Region of an item with an OmpSs shape (`[n][m]a`, `[n]a[i;1]`) or SMPSs
  /// regions (`a{lo:len}{}`): the object is an array of `Dims`, of which the
  /// item names a part in each dimension; the part must be one block of
  /// rows (a css_region).
  std::optional<RegionCode> buildShapedRegion(const NameScope &S, const Item &It, const BaseInfo &B) {
    SourceLocation Loc = S.Raw->locationOf(It.Offset);
    const std::string &N = B.Name;
    unsigned FirstPart = It.Shape.empty() ? It.Regions.front().Offset : It.Begin;
    std::optional<TypeShape> Shape = typeShape(B);
    if (!Shape) {
      error(S.Raw->locationOf(FirstPart), "%0 on '%1', which is a scalar of type '%2'",
            It.Shape.empty() ? "regions '{...}'" : "a shape '[...]'", N, printType(B.Type));
      return std::nullopt;
    }
    if (!hasKnownSize(Shape->Scalar)) {
      error(Loc, "cannot tell the size of what '%0' points to (type '%1'); use a typed pointer", N,
            printType(B.Type));
      return std::nullopt;
    }
    // The object's dimensions.
    std::vector<std::string> Dims;
    if (!It.Shape.empty()) {
      // OmpSs: [e1]...[ek]p views p, a pointer to T, as a T[e1]...[ek].
      for (const ExprText &E : It.Shape)
        Dims.push_back(E.Text);
      Dims.insert(Dims.end(), Shape->Dims.begin() + 1, Shape->Dims.end());
    } else {
      Dims = Shape->Dims;
      // StarSs dimensions before SMPSs regions: p[n][m]{..}{..} for a
      // pointer to scalars, a[n]{..}{..} for a pointer to arrays.
      if (!It.Dims.empty() && Dims.size() == 1)
        Dims.clear();
      else if (It.Dims.size() > Dims.size()) {
        error(S.Raw->locationOf(It.Dims[Dims.size()].Offset),
              "too many dimensions for '%0' of type '%1', which has %2", N, printType(B.Type),
              std::to_string(Dims.size()));
        return std::nullopt;
      }
      for (size_t I = 0; I < It.Dims.size(); ++I) {
        if (I == Dims.size()) Dims.emplace_back();
        Dims[I] = It.Dims[I].First.Text;
      }
    }
    // The part in each dimension: OmpSs sections after a shape ([i] is one
    // element), or SMPSs regions; the dimensions not named are whole.
    const std::vector<Dimension> &Parts = It.Shape.empty() ? It.Regions : It.Dims;
    if (Parts.size() > Dims.size()) {
      error(S.Raw->locationOf(Parts[Dims.size()].Offset),
            "too many parts for '%0', which has %1 dimension(s) here; remove this one, or give '%0' more "
            "dimensions with a shape, e.g. '[n][m]%0'",
            N, std::to_string(Dims.size()));
      return std::nullopt;
    }
    struct Part {
      std::string Lo, Len;
      bool Whole = false, One = false;
    };
    std::vector<Part> P(Dims.size());
    for (size_t I = 0; I < Dims.size(); ++I) {
      Part &Q = P[I];
      Dimension::Kind K = I < Parts.size() ? Parts[I].K : Dimension::Whole;
      if (K == Dimension::Extent) K = Dimension::Index; // after a shape: one element
      switch (K) {
      case Dimension::Whole:
        Q.Whole = true;
        Q.Len = Dims[I];
        if (Dims[I].empty()) {
          error(S.Raw->locationOf(I < Parts.size() ? Parts[I].Offset : It.Offset),
                "cannot tell how many elements '%0' points to (type '%1'): '{}' needs a known extent; give "
                "the part, e.g. '%0{0:n}', or a shape, e.g. '[n]%0'",
                N, printType(B.Type));
          return std::nullopt;
        }
        break;
      case Dimension::Index:
        Q.Lo = Parts[I].First.Text;
        Q.Len = "1";
        Q.One = true;
        break;
      case Dimension::Length:
        Q.Lo = Parts[I].First.Text;
        Q.Len = Parts[I].Second.Text;
        Q.One = Q.Len == "1";
        break;
      case Dimension::Range:
        Q.Lo = Parts[I].First.Text;
        Q.Len = paren(Parts[I].Second.Text) + " - " + paren(Parts[I].First.Text) + " + 1";
        Q.One = Parts[I].First.Text == Parts[I].Second.Text;
        break;
      case Dimension::Extent:
        break;
      }
      if (Q.Lo == "0") Q.Lo.clear();
    }
    // The innermost dimension that is not whole ends each row; of the
    // dimensions around it, one at most may name more than one element.
    size_t Inner = 0;
    for (size_t I = 0; I < P.size(); ++I)
      if (!P[I].Whole) Inner = I;
    std::optional<size_t> Outer;
    for (size_t I = 0; I < Inner; ++I)
      if (!P[I].One) {
        if (Outer) {
          error(S.Raw->locationOf(I < Parts.size() ? Parts[I].Offset : FirstPart),
                "'%0' names a part of more than two dimensions; a task's region is a block of rows (one "
                "run of elements, or rows of equal runs at a fixed stride): split it into items of one "
                "row index each, or name a larger block",
                It.Text);
          return std::nullopt;
        }
        Outer = I;
      }
    auto product = [&](size_t From) {
      std::string Prod;
      for (size_t J = From; J < Dims.size(); ++J)
        Prod += count(Dims[J]) + " * ";
      return Prod;
    };
    // One element: *p or (a)[0][0], its address and its size.
    std::string First = "*" + N, FirstAddress = paren(N);
    if (Shape->Depth > 1) {
      First = paren(N);
      for (unsigned D = 0; D < Shape->Depth; ++D)
        First += "[0]";
      FirstAddress = "&" + First;
    }
    std::string Elem = "sizeof(" + First + ")";
    std::string Offset;
    for (size_t I = 0; I < P.size(); ++I)
      if (!P[I].Lo.empty()) Offset += (Offset.empty() ? "" : " + ") + product(I + 1) + count(P[I].Lo);
    RegionCode R;
    R.Base = Offset.empty() ? N : FirstAddress + " + (" + Offset + ")";
    std::string RowBytes = (P[Inner].One ? "" : count(P[Inner].Len) + " * ") + product(Inner + 1) + Elem;
    if (!Outer) {
      R.Bytes = RowBytes;
      return R;
    }
    R.Base = "(void *)" + paren(R.Base);
    R.RowBytes = RowBytes;
    R.Rows = count(P[*Outer].Len);
    R.Stride = product(*Outer + 1) + Elem;
    return R;
  }

  /// Region of a plain StarSs item (no shape, no `{...}`) whose base is a
  /// pointer or an array.
  std::optional<RegionCode> buildClassicRegion(const NameScope &S, const Item &It, const BaseInfo &B) {
    SourceLocation Loc = S.Raw->locationOf(It.Offset);
    const std::string &N = B.Name;
    clang::QualType T = B.Type;
    if (!T->isPointerType() && !T->isArrayType()) {
      // A variable named at a call site or in `wait on`: the variable itself.
      if (!It.Dims.empty()) {
        error(S.Raw->locationOf(It.Dims.front().Offset),
              "dimensions on '%0', which is a scalar of type '%1'; name the variable alone ('%0')", N,
              printType(T));
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
      // A parameter declared as an array (`double a[4][4]`, `ELM data[n]`,
      // `block R`): the whole array its type gives.
      const clang::ArrayType *OrigArray = B.IsParm ? Ctx.getAsArrayType(B.Original) : nullptr;
      std::string OrigExtent = OrigArray ? extentOf(OrigArray) : "";
      if (!OrigExtent.empty())
        Whole = countExtent(OrigExtent) + " * sizeof(*" + N + ")";
      else if (hasKnownSize(Pointee))
        Whole = "sizeof(*" + N + ")";
    }
    if (!hasKnownSize(Pointee)) {
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
              "sections in more than one dimension need a pointer to arrays, such as 'double (*%0)[N]', "
              "or a shape, e.g. '[n][m]%0[i;k][j;l]'",
              N);
        return std::nullopt;
      }
      std::string Lo, Len;
      lowAndLength(It.Dims[0], Lo, Len);
      R.Base = paren(N) + " + " + paren(Lo);
      R.Bytes = count(Len) + " * sizeof(*" + N + ")";
      return R;
    }
    if (It.Dims.size() > Rank + 1) {
      error(S.Raw->locationOf(It.Dims[Rank + 1].Offset),
            "too many dimensions for '%0' of type '%1', which has %2", N, printType(T),
            std::to_string(Rank + 1));
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
      error(UseLoc,
            "task function '%0' returns a value (of type '%1'); task functions must return void: return "
            "the result through a pointer parameter named in output(...)",
            FD->getNameAsString(), printType(FD->getReturnType()));
      if (UseLoc != FD->getLocation()) note(FD->getLocation(), "'%0' declared here", FD->getNameAsString());
      return false;
    }
    if (const auto *M = llvm::dyn_cast<clang::CXXMethodDecl>(FD)) {
      std::string Name = M->getParent()->getNameAsString() + "::" + M->getNameAsString();
      if (!M->isStatic()) {
        error(UseLoc,
              "non-static member function '%0' cannot be a task: a task has no object to call it on; make "
              "it a static member function, or a free function that takes the object by pointer and names "
              "it in a data clause",
              Name);
        return false;
      }
      if (M->getParent()->isDependentContext()) {
        error(UseLoc,
              "static member function '%0' of a class template cannot be a task; make it a free function "
              "template",
              Name);
        return false;
      }
      for (const clang::DeclContext *DC = M->getDeclContext(); DC && DC->isRecord(); DC = DC->getParent()) {
        const auto *Class = llvm::cast<clang::CXXRecordDecl>(DC);
        if (Class->isLocalClass() || Class->getName().empty()) {
          error(UseLoc,
                "static member function '%0' of a local or unnamed class cannot be a task: the generated "
                "code cannot name it; move the class to namespace scope and give it a name",
                Name);
          return false;
        }
      }
      for (const clang::Decl *D = M; D && D->getDeclContext()->isRecord();
           D = llvm::cast<clang::Decl>(D->getDeclContext()))
        if (D->getAccess() != clang::AS_public) {
          error(UseLoc,
                "static member function '%0' is not public (it or a class around it is private or "
                "protected): the generated task code calls it from outside the class; make it public",
                Name);
          return false;
        }
    }
    if (FD->isVariadic()) {
      error(UseLoc, "variadic function '%0' cannot be a task: a task needs a fixed list of parameters",
            FD->getNameAsString());
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
      if (T->isReferenceType()) {
        error(P->getLocation(),
              "parameter '%0' of task function '%1' is a reference (type '%2'): a task runs later and "
              "cannot keep a reference to the caller's variable; pass a pointer and name it in a data "
              "clause (e.g. 'inout(%0)')",
              P->getNameAsString(), FD->getNameAsString(), printType(T));
        return false;
      }
      // A C99 variable-length array parameter (`double a[n][n]`) is a
      // pointer whose type depends on the other parameters: the task keeps
      // the address and the call gets it back with its type.
      if (T->isVariablyModifiedType() && (Ctx.getLangOpts().CPlusPlus || !T->isPointerType())) {
        error(P->getLocation(),
              "parameter '%0' of task function '%1' has a variable-length array type ('%2'), which "
              "%3; declare it as a plain pointer and give its shape in the clause, e.g. 'inout([n][n]%0)'",
              P->getNameAsString(), FD->getNameAsString(), printType(P->getOriginalType()),
              Ctx.getLangOpts().CPlusPlus ? "C++ does not have" : "a task cannot hold");
        return false;
      }
      // A type that depends on template parameters is checked when the
      // template is instantiated (a static_assert in the generated code).
      bool Copyable = !Ctx.getLangOpts().CPlusPlus || T->isDependentType() || T.isTriviallyCopyableType(Ctx);
      if (!Copyable) {
        error(P->getLocation(),
              "parameter '%0' of task function '%1' has type '%2', which is not trivially copyable, so "
              "it cannot be copied into a task; pass a pointer to the data instead (for a container, "
              "its data() and size, e.g. 'inout([n]%0)' for 'T *%0')",
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
        Declared = genType(Value->getType(), Name);
        HasDefault = Value->hasDefaultArgument();
      } else {
        error(P->getLocation(),
              "template template parameter '%0' of task function '%1' is not supported: the generated "
              "task code cannot forward it; take the class itself as a type parameter instead",
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

  /// "::a::b::" for the named namespaces and classes around DC (C++), ""
  /// in C. Anonymous namespaces are left out: a qualified name finds their
  /// members through the namespace around them.
  std::string scopeOf(const clang::DeclContext *DC) const {
    if (!Ctx.getLangOpts().CPlusPlus) return "";
    std::string S;
    for (; DC && !DC->isTranslationUnit(); DC = DC->getParent())
      if (const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(DC); NS && !NS->isAnonymousNamespace())
        S = NS->getNameAsString() + "::" + S;
      else if (const auto *Class = llvm::dyn_cast<clang::CXXRecordDecl>(DC))
        S = Class->getNameAsString() + "::" + S;
    return "::" + S;
  }

  /// The name a task shows in traces and errors: label(...), or the
  /// function's name (Class::name for a static member function).
  static std::string taskLabel(const clang::FunctionDecl *FD, const TaskDirective &Task) {
    if (!Task.Label.empty()) return Task.Label;
    if (const auto *M = llvm::dyn_cast<clang::CXXMethodDecl>(FD))
      return M->getParent()->getNameAsString() + "::" + M->getNameAsString();
    return FD->getNameAsString();
  }

  /// Builds the model of a task. `FD` names the parameters (declaration
  /// pragma) or is the callee (call-site pragma, `Call` set).
  bool buildTask(const clang::FunctionDecl *FD, const ParsedDirective *Task, const ParsedDirective *Target,
                 const NameScope &Scope, const clang::CallExpr *Call, TaskCode &Code) {
    Code.Label = taskLabel(FD, Task->D.Task);
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
    if (Target && Target->Raw != Task->Raw) Code.Clauses += " / #pragma css " + Target->Raw->Text;
    Code.Clauses = sanitizeComment(Code.Clauses);
    if (Task->D.Task.HasPriority) {
      if (!checkExprNames(Scope, Task->D.Task.Priority)) return false;
      Code.Priority = Task->D.Task.Priority.Text;
    }

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
        if (!It.Dims.empty() || !It.Shape.empty() || !It.Regions.empty()) {
          unsigned At = !It.Shape.empty()  ? It.Begin
                        : !It.Dims.empty() ? It.Dims.front().Offset
                                           : It.Regions.front().Offset;
          error(ItemScope.Raw->locationOf(At),
                "%0 on '%1', which is a scalar passed by value (type '%2'); name it alone, in input(%1)",
                !It.Shape.empty()  ? "a shape"
                : !It.Dims.empty() ? "dimensions"
                                   : "regions",
                It.Name, printType(B->Type));
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
      PC.Declarator = genType(T, PC.Name);
      PC.TypeName = genType(T);
      if (T->isPointerType() && T->getPointeeType()->isVariablyModifiedType()) {
        bool Const = Ctx.getBaseElementType(T->getPointeeType()).isConstQualified();
        PC.Storage = std::string(Const ? "const void *" : "void *") + PC.Name;
      }
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
    // `#pragma css task target device(...) ...`: the target written inside.
    ParsedDirective Embedded;
    if (Task->D.Task.HasTarget) {
      if (Target) {
        error(Target->Raw->NameLoc, "a second target for one task: the task directive has 'target "
                                    "device(...)' in it already; keep one of the two");
        note(Task->Raw->locationOf(Task->D.Task.TargetOffset), "the target in the task directive");
        return;
      }
      Embedded.Raw = Task->Raw;
      Embedded.D.Kind = DirectiveKind::Target;
      Embedded.D.Offset = Task->D.Task.TargetOffset;
      Embedded.D.Target = Task->D.Task.Target;
      Target = &Embedded;
    }
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
      DirectiveSummary Summary = summarize(FD, Task, Target);
      if (auto It = DeclTaskSummary.find(Canon); It != DeclTaskSummary.end()) {
        if (checkSameDirectives(FD, It->second, Summary)) commentOut(Task, Target);
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
      DeclTaskSummary[Canon] = std::move(Summary);
      if (Code.Cuda) CudaFunctions.insert(Canon);
      Tasks.push_back(std::move(Code));
      TaskPragma.push_back(Task->Raw);
      TaskFunction.push_back(FD);
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
    TaskFunction.push_back(FD);
    commentOut(Task, Target);
  }

  void commentOut(const ParsedDirective *A, const ParsedDirective *B) {
    replaceDirective(*A->Raw, "");
    if (B && B->Raw != A->Raw) replaceDirective(*B->Raw, "");
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
      error(OnlyHere->Raw->locationOf(OnlyHere->Offset),
            "the task directives on two declarations of '%0' differ: this one says '%1' where the other "
            "says '%2'; write the same clauses on both, or annotate one declaration only",
            Name, OnlyHere->Shown, OnlyThere->Shown);
      note(OnlyThere->Raw->locationOf(OnlyThere->Offset), "the other declaration's directive says '%0' here",
           OnlyThere->Shown);
    } else if (OnlyHere) {
      error(OnlyHere->Raw->locationOf(OnlyHere->Offset),
            "the task directives on two declarations of '%0' differ: this one says '%1', the other does "
            "not; write the same clauses on both, or annotate one declaration only",
            Name, OnlyHere->Shown);
      note(First.Raw->NameLoc, "the other declaration's directive is here");
    } else {
      error(Here.Raw->NameLoc,
            "the task directives on two declarations of '%0' differ: this one does not say '%1', the "
            "other does; write the same clauses on both, or annotate one declaration only",
            Name, OnlyThere->Shown);
      note(OnlyThere->Raw->locationOf(OnlyThere->Offset), "the other declaration's directive says '%0' here",
           OnlyThere->Shown);
    }
    return false;
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
      error(R.NameLoc,
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
      error(R.NameLoc,
            "'#pragma css %0' must be written as a #pragma line of the main file: one made by a macro "
            "or '_Pragma' is not rewritten",
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

  /// A static member function task is called by its class's name, and
  /// after the class: its task code, inserted before the declaration around
  /// the call, names it.
  bool checkCallPlace(const CallSite &Site, size_t TaskIndex) {
    const auto *M = llvm::dyn_cast<clang::CXXMethodDecl>(TaskFunction[TaskIndex]);
    if (!M) return true;
    SourceLocation Loc = fileLoc(Site.Call->getBeginLoc());
    if (llvm::isa<clang::MemberExpr>(Site.Call->getCallee()->IgnoreParenImpCasts())) {
      error(Loc,
            "call static member task function '%0' by its class's name, as '%0(...)', not through an object",
            Tasks[TaskIndex].Label);
      return false;
    }
    const clang::CXXRecordDecl *Outermost = M->getParent();
    while (const auto *Around = llvm::dyn_cast<clang::CXXRecordDecl>(Outermost->getDeclContext()))
      Outermost = Around;
    const clang::Decl *Top = Site.TopDecl;
    if (const auto *Template = llvm::dyn_cast_or_null<clang::ClassTemplateDecl>(Top))
      Top = Template->getTemplatedDecl();
    if (Top == Outermost) {
      error(Loc,
            "a call of static member task function '%0' inside the definition of class '%1' cannot be "
            "translated: the task's code must come after the class; call it from a member function "
            "defined after the class, or from a free function",
            Tasks[TaskIndex].Label, Outermost->getNameAsString());
      return false;
    }
    return true;
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
        if (!checkNoMacro(Site.Call, Tasks[It->second].Label) || !checkCallPlace(Site, It->second)) continue;
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
    const TaskCode &Code = Tasks[TaskIndex];
    if (!checkNoMacro(Site.Call, Code.Label) || !checkCallPlace(Site, TaskIndex)) return;
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
