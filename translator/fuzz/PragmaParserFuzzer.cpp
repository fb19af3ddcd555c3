//===- PragmaParserFuzzer.cpp - libFuzzer entry for the pragma parser ------===//
//
// The parser must never crash or hang, whatever the text and whichever the
// pragma namespace (css or omp); when it accepts the text, the offsets it
// reports must lie inside it.
//
//===----------------------------------------------------------------------===//
#include "PragmaParser.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void checkParse(std::string_view Text, gpuss::PragmaDialect Dialect) {
  const size_t Size = Text.size();
  gpuss::ParseResult R = gpuss::parseDirective(Text, Dialect);
  if (!R.Parsed) {
    if (R.Error.Offset > Size || R.Error.Message.empty()) std::abort();
    return;
  }
  auto check = [&](const gpuss::Item &It) {
    if (It.Offset >= Size || It.Begin > It.Offset || It.Name.empty() || It.Tokens.empty()) std::abort();
    for (const gpuss::ExprText &E : It.Shape)
      if (E.Text.empty() || E.Offset >= Size) std::abort();
    for (const gpuss::Dimension &D : It.Dims)
      if (D.First.Text.empty() || D.First.Offset >= Size) std::abort();
    for (const gpuss::Dimension &D : It.Regions) {
      if (D.Offset >= Size) std::abort();
      if (D.K != gpuss::Dimension::Whole && (D.First.Text.empty() || D.First.Offset >= Size)) std::abort();
      bool Two = D.K == gpuss::Dimension::Length || D.K == gpuss::Dimension::Range;
      if (Two != !D.Second.Text.empty()) std::abort();
    }
  };
  const gpuss::TaskDirective &Task = R.Parsed->Task;
  if (Task.HasPriority && (Task.Priority.Text.empty() || Task.Priority.Offset >= Size)) std::abort();
  if (Task.HasTarget && Task.TargetOffset >= Size) std::abort();
  for (const gpuss::Clause &C : Task.Target.Copies)
    for (const gpuss::Item &It : C.Items)
      check(It);
  for (const gpuss::Clause &C : R.Parsed->Task.Clauses)
    for (const gpuss::Item &It : C.Items)
      check(It);
  for (const gpuss::Clause &C : R.Parsed->Target.Copies)
    for (const gpuss::Item &It : C.Items)
      check(It);
  for (const gpuss::Item &It : R.Parsed->Wait.Items)
    check(It);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Text(reinterpret_cast<const char *>(Data), Size);
  checkParse(Text, gpuss::PragmaDialect::Css);
  checkParse(Text, gpuss::PragmaDialect::Omp);
  return 0;
}
