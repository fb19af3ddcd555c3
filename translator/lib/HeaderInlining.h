//===- HeaderInlining.h - Write translated headers into the output ---------===//
//
// Task calls and directives in the program's own headers (static inline
// functions, templates) are translated like the main file's. The translator
// writes one file, so a header it changed reaches the compiler inside the
// output: each changed header replaces the #include that entered it, with
// #line directives naming the header, and so does every header on the
// include chain from the main file to it (a header that includes one of
// them elsewhere too). Quoted #includes inside those headers name the files
// they found by absolute path, #pragma once becomes a comment, and #includes
// that the preprocessor skipped the second time (guards, #pragma once) are
// dropped: the original header is never read again.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_HEADERINLINING_H
#define GPUSS_TRANSLATOR_HEADERINLINING_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include <vector>

namespace gpuss {

/// One #include directive as the preprocessor saw it.
struct Inclusion {
  clang::SourceLocation Hash;           ///< the '#'
  clang::CharSourceRange FilenameRange; ///< `"a.h"` or `<a.h>`
  clang::OptionalFileEntryRef File;     ///< what it found
  bool Angled = false;
};

/// Records every #include, also those skipped as included already.
class InclusionRecorder : public clang::PPCallbacks {
public:
  explicit InclusionRecorder(std::vector<Inclusion> &Out) : Out(Out) {}
  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &IncludeTok,
                          llvm::StringRef FileName, bool IsAngled, clang::CharSourceRange FilenameRange,
                          clang::OptionalFileEntryRef File, llvm::StringRef SearchPath,
                          llvm::StringRef RelativePath, const clang::Module *SuggestedModule,
                          bool ModuleImported, clang::SrcMgr::CharacteristicKind FileType) override {
    Out.push_back({HashLoc, FilenameRange, File, IsAngled});
  }

private:
  std::vector<Inclusion> &Out;
};

/// Splices the headers the rewriter changed into the main file's buffer.
/// Returns false after reporting why a changed header cannot reach the
/// output (included by a system header, or from the command line).
bool inlineTranslatedHeaders(clang::Rewriter &Rewrite, const std::vector<Inclusion> &Inclusions,
                             clang::DiagnosticsEngine &Diags);

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_HEADERINLINING_H
