//===- RuntimeSymbols.h - Every runtime name the generated code spells -----===//
//
// The generated code talks to libgpuss only through include/gpuss.h. Every
// symbol of that interface, and every name the translator makes up, is spelt
// here and nowhere else.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_RUNTIMESYMBOLS_H
#define GPUSS_TRANSLATOR_RUNTIMESYMBOLS_H

namespace gpuss::rt {

// gpuss.h
inline constexpr const char *Header = "gpuss.h";
inline constexpr const char *AbiVersion = "GPUSS_ABI_VERSION";
inline constexpr const char *Region = "css_region";
inline constexpr const char *Contiguous = "css_contiguous";
inline constexpr const char *Mul = "css_mul";
inline constexpr const char *WaitWritten = "css_wait_written";
inline constexpr const char *Access = "css_access";
inline constexpr const char *DirIn = "CSS_IN";
inline constexpr const char *DirOut = "CSS_OUT";
inline constexpr const char *DirInout = "CSS_INOUT";
inline constexpr const char *CopyDefault = "CSS_COPY_DEFAULT";
inline constexpr const char *CopyExplicit = "CSS_COPY_EXPLICIT";
inline constexpr const char *CopyIn = "CSS_COPY_IN";
inline constexpr const char *CopyOut = "CSS_COPY_OUT";
inline constexpr const char *DeviceSmp = "CSS_DEVICE_SMP";
inline constexpr const char *DeviceCuda = "CSS_DEVICE_CUDA";
inline constexpr const char *HighPriority = "CSS_TASK_HIGH_PRIORITY";
inline constexpr const char *Final = "CSS_TASK_FINAL";
inline constexpr const char *TaskEnv = "css_task_env";
inline constexpr const char *TaskDesc = "css_task_desc";
inline constexpr const char *Translate = "css_translate";
inline constexpr const char *Submit = "css_submit";
inline constexpr const char *Start = "css_start";
inline constexpr const char *Finish = "css_finish";
inline constexpr const char *Barrier = "css_barrier";
inline constexpr const char *WaitOn = "css_wait_on";
inline constexpr const char *WaitOnAt = "css_wait_on_at";
inline constexpr const char *Release = "css_release";
inline constexpr const char *CudaStream = "css_cuda_stream";
inline constexpr const char *CriticalEnter = "css_critical_enter";
inline constexpr const char *CriticalHeld = "css_critical_held";
inline constexpr const char *CriticalLeave = "css_critical_leave";
inline constexpr const char *SubmitHelperAttributes = "GPUSS_SUBMIT_HELPER";

// Names the translator makes up (reserved identifiers, so they cannot clash
// with user code).
inline constexpr const char *ArgsStructPrefix = "__css_args_";
inline constexpr const char *BodyPrefix = "__css_body_";
inline constexpr const char *SubmitPrefix = "__css_submit_";
inline constexpr const char *LocalPrefix = "__css_";

} // namespace gpuss::rt

#endif // GPUSS_TRANSLATOR_RUNTIMESYMBOLS_H
