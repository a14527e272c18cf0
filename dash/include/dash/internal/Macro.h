// Small preprocessor helpers under DASH's names, for programs written for DASH (and our own
// code where they read better than the spelled-out form).
//
// | macro             | expands to                                                      |
// |-------------------|-----------------------------------------------------------------|
// | dash__tostr(s)    | "s": the argument as written, not macro-expanded               |
// | dash__toxstr(s)   | the argument after macro expansion, as a string literal         |
// |                   | (dash__toxstr(DASH_MPI_IMPL_ID) -> "openmpi")                   |
// | dash__unused(x)   | (void)(x): x is evaluated and marked as used (no warning)       |
#ifndef DASH__INTERNAL__MACRO_H_
#define DASH__INTERNAL__MACRO_H_

#define dash__tostr(s) #s
#define dash__toxstr(s) dash__tostr(s)
#define dash__unused(x) ((void)(x))

#endif  // DASH__INTERNAL__MACRO_H_
