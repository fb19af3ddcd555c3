//===- TranslateAction.h - The frontend action of gpuss-translate ----------===//
//
// Parses one source with Clang, captures `#pragma css`, analyses it and
// rewrites the main file in memory. It writes no file: the driver does.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_TRANSLATEACTION_H
#define GPUSS_TRANSLATOR_TRANSLATEACTION_H

#include "clang/Tooling/Tooling.h"

#include <memory>
#include <string>
#include <vector>

namespace gpuss {

struct TranslationResult {
  std::string Output;                    ///< the translated main file
  bool Changed = false;                  ///< false: Output is the input unchanged
  bool ParseFailed = false;              ///< Clang reported errors before the directives were read
  std::vector<std::string> Dependencies; ///< every file the parse read
};

/// A factory for ClangTool::run that fills `Result` (one source per run).
std::unique_ptr<clang::tooling::FrontendActionFactory> newTranslateActionFactory(TranslationResult &Result);

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_TRANSLATEACTION_H
