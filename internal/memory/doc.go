// Package memory holds what the big tables need from the machine: memory
// mapped with transparent huge pages (the transposition table, the endgame
// solver's working arrays), a prefetch of a cache line, and what the kernel
// says about the process's memory (what is still available, its peak).
//
// A table probed at random costs a TLB miss per probe when it is mapped in
// 4 KB pages; with 2 MB pages the whole table needs few TLB entries. Huge
// pages are asked for with MADV_HUGEPAGE, so they work where the kernel's
// transparent huge pages are in "madvise" mode, the common default.
package memory
