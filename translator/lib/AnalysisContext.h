//===- AnalysisContext.h - What every part of the analysis shares ----------===//
//
// Owns the services the parts of the analysis (TaskAnalysis.h) have in
// common, and nothing of what they find: the AST and its source manager,
// the captured directives, the tokens macros turned into strings, and the
// AST facts (TaskVisitor.h), the edit plan
// they all add to, and the error state. On top of them: the translator's
// diagnostics (errors, warnings that show under `-w`, notes), source
// positions (file, line, what lies between two places), how types and
// scopes are spelt in messages and in the generated code, and the edit that
// replaces a directive line with its code and a comment.
//
// Relies on DiagnosticsEngine for every user-facing message and on CodeGen
// for the text of the edits.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_ANALYSISCONTEXT_H
#define GPUSS_TRANSLATOR_ANALYSISCONTEXT_H

#include "CodeGen.h"
#include "Directive.h"
#include "PragmaCapture.h"
#include "StringizedArgs.h"
#include "TaskAnalysis.h"
#include "TaskModel.h"
#include "TaskVisitor.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"

#include <string>
#include <vector>

namespace gpuss {

/// A captured directive and what it says.
struct ParsedDirective {
  const RawDirective *Raw = nullptr;
  Directive D;
};

class AnalysisContext {
public:
  AnalysisContext(clang::ASTContext &Ctx, const std::vector<RawDirective> &Raws,
                  const StringizedTokens &Stringized, const ASTFacts &Facts, EditPlan &Plan);

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  clang::DiagnosticsEngine &Diags;
  const std::vector<RawDirective> &Raws;
  const StringizedTokens &Stringized; ///< what macros turned into strings (StringizedArgs.h)
  const ASTFacts &Facts;
  EditPlan &Plan;
  CodeGenOptions Opts;
  bool Failed = false; ///< an error was reported

  // ------------------------------------------------------------ diagnostics
  template <unsigned N, typename... Args>
  void error(clang::SourceLocation Loc, const char (&Format)[N], const Args &...A) {
    unsigned ID = Diags.getCustomDiagID(clang::DiagnosticsEngine::Error, Format);
    auto Builder = Diags.Report(Loc, ID);
    ((Builder << llvm::StringRef(A)), ...);
    Failed = true;
  }
  /// The translator's own warnings show although Clang's are off (`-w`,
  /// set by the driver for the parse), and stay warnings under -Werror.
  template <unsigned N, typename... Args>
  void warning(clang::SourceLocation Loc, const char (&Format)[N], const Args &...A) {
    bool Ignore = Diags.getIgnoreAllWarnings(), AsErrors = Diags.getWarningsAsErrors();
    Diags.setIgnoreAllWarnings(false);
    Diags.setWarningsAsErrors(false);
    unsigned ID = Diags.getCustomDiagID(clang::DiagnosticsEngine::Warning, Format);
    {
      auto Builder = Diags.Report(Loc, ID);
      ((Builder << llvm::StringRef(A)), ...);
    }
    Diags.setIgnoreAllWarnings(Ignore);
    Diags.setWarningsAsErrors(AsErrors);
  }
  template <unsigned N, typename... Args>
  void note(clang::SourceLocation Loc, const char (&Format)[N], const Args &...A) {
    unsigned ID = Diags.getCustomDiagID(clang::DiagnosticsEngine::Note, Format);
    auto Builder = Diags.Report(Loc, ID);
    ((Builder << llvm::StringRef(A)), ...);
  }

  // ------------------------------------------------------------ locations
  clang::SourceLocation fileLoc(clang::SourceLocation L) const { return SM.getExpansionLoc(L); }
  /// Only whitespace, comments and conditional-inclusion lines between From
  /// and To (same file).
  bool onlyTrivia(clang::SourceLocation From, clang::SourceLocation To) const;
  std::string fileName(clang::SourceLocation L) const;
  unsigned lineOf(clang::SourceLocation L) const;
  bool inMainFile(clang::SourceLocation L) const { return L.isValid() && L.isFileID() && SM.isInMainFile(L); }
  bool translatable(clang::SourceLocation L) const {
    return L.isValid() && L.isFileID() && isTranslatable(SM, L);
  }
  std::string sourceText(clang::CharSourceRange R) const;
  /// Whether S, as written, holds byte At of File (a directive's place).
  bool holdsOffset(const clang::Stmt *S, clang::FileID File, unsigned At) const {
    clang::SourceLocation B = fileLoc(S->getBeginLoc()), E = fileLoc(S->getEndLoc());
    return SM.getFileID(B) == File && SM.getFileOffset(B) <= At && At <= SM.getFileOffset(E);
  }
  /// The outermost macro whose expansion `Loc` is in.
  std::string macroNameAt(clang::SourceLocation Loc) const;
  /// The first of Nodes (declarations or statements) that begins at or
  /// after L, in L's file, with its offset there; null if none.
  template <typename Node>
  const Node *firstFrom(const std::vector<const Node *> &Nodes, clang::SourceLocation L,
                        unsigned &Offset) const {
    auto [File, From] = SM.getDecomposedLoc(fileLoc(L));
    const Node *First = nullptr;
    for (const Node *N : Nodes) {
      auto [F, O] = SM.getDecomposedLoc(fileLoc(N->getBeginLoc()));
      if (F == File && O >= From && (!First || O < Offset)) {
        First = N;
        Offset = O;
      }
    }
    return First;
  }
  /// The function definition whose body holds L, if any.
  const clang::FunctionDecl *functionAround(clang::SourceLocation L) const;
  /// `#line` of a directive's line, without the newline (TaskModel.h).
  std::string pinOf(const RawDirective &R) const;

  // ------------------------------------------------------------ types and scopes
  clang::PrintingPolicy policy() const;
  /// A type as the user wrote it (for messages).
  std::string printType(clang::QualType T, const std::string &Name = "") const;
  /// A type for the generated code, which stands at another scope than the
  /// declaration it comes from: in C++ every name in it is fully qualified
  /// (`::blocks::Affine`, `::std::complex<double>`).
  std::string genType(clang::QualType T, const std::string &Name = "") const;
  std::string printExpr(const clang::Expr *E) const;
  /// "::a::b::" for the named namespaces and classes around DC (C++), ""
  /// in C. Anonymous namespaces are left out: a qualified name finds their
  /// members through the namespace around them.
  std::string scopeOf(const clang::DeclContext *DC) const;

  // ------------------------------------------------------------ directive edits
  /// Replaces a `#pragma css` directive of the main file with `Code` and a
  /// comment holding the directive.
  /// Directives of the main file, and synchronisation in the program's
  /// headers (`Headers`: a header with task code is written into the
  /// output; a task directive there is left to the compiler, which ignores
  /// it).
  bool replaceDirective(const RawDirective &R, const std::string &Code, bool Headers = false);
  /// A task directive (and its target directive, if apart) that has become
  /// code elsewhere: a comment.
  void commentOut(const ParsedDirective *A, const ParsedDirective *B);
};

// ------------------------------------------------------------ directions
/// The direction of a data clause (input, output, inout) or a copy clause
/// (copy_in, copy_out, copy_inout).
Direction directionOf(ClauseKind K);

/// The data clause of a direction (input, output, inout).
ClauseKind dataClauseOf(Direction D);

// ------------------------------------------------------------ AST helpers
/// Neither a pointer (but a function pointer, a value) nor an array.
bool isScalar(clang::QualType T);

/// Whether the generated code can take sizeof(T): a complete type, or a
/// class template specialization not instantiated yet (`std::array<double,
/// 4>` named only in a prototype), which sizeof instantiates.
bool hasKnownSize(clang::QualType T);

/// The variable a pointer argument is based on: `x` for `x`, `&x`,
/// `&x[i]`, `x + i`, `(T *)x`, `m[i]` (a row of an array); `Storage` says
/// whether it points into the variable's own storage (an array, or an
/// address taken) rather than being a pointer value it holds. Null for
/// other expressions (`C[t]`, a pointer stored in an array, is a value).
const clang::ValueDecl *argVariable(const clang::Expr *Arg, bool *Storage = nullptr);

/// `S` made safe inside a C comment (`*/` broken).
std::string sanitizeComment(const std::string &S);

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_ANALYSISCONTEXT_H
