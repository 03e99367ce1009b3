package syntax

// nvtxText is our own C for the NVIDIA Tools Extension's annotation API
// (<nvToolsExt.h>, <nvtx3/nvToolsExt.h>), which programs call to name
// ranges and points in time for a profiler. The annotations have no
// effect on the program's meaning: like cudaProfilerStart/Stop they only
// inform a tool, and under the semantics no tool is attached, so each
// call answers what NVTX answers without one: the push/pop functions
// return NVTX_NO_PUSH_POP_TRACKING (-2), the start of a range returns the
// id 0, and the rest return nothing. The arguments are evaluated (a bad
// pointer passed to them is still the program's own read, where the
// program reads it). The attribute struct has NVTX's field names with our
// layout (programs fill it by name).
const nvtxText = `#ifndef __WEFT_NVTX
#define __WEFT_NVTX
#define NVTX_VERSION 3
#define NVTX_NO_PUSH_POP_TRACKING ((int)-2)
#define NVTX_COLOR_UNKNOWN 0
#define NVTX_COLOR_ARGB 1
#define NVTX_MESSAGE_UNKNOWN 0
#define NVTX_MESSAGE_TYPE_ASCII 1
#define NVTX_MESSAGE_TYPE_UNICODE 2
#define NVTX_PAYLOAD_UNKNOWN 0
#define NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 1
#define NVTX_PAYLOAD_TYPE_INT64 2
#define NVTX_PAYLOAD_TYPE_DOUBLE 3
#define NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 4
#define NVTX_PAYLOAD_TYPE_INT32 5
#define NVTX_PAYLOAD_TYPE_FLOAT 6
typedef unsigned long long nvtxRangeId_t;
typedef struct nvtxEventAttributes_v2 {
	unsigned short version;
	unsigned short size;
	unsigned int category;
	int colorType;
	unsigned int color;
	int payloadType;
	int reserved0;
	union { unsigned long long ullValue; long long llValue; double dValue; unsigned int uiValue; int iValue; float fValue; } payload;
	int messageType;
	union { const char *ascii; const void *unicode; } message;
} nvtxEventAttributes_t;
#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((unsigned short)sizeof(nvtxEventAttributes_t))
static inline int nvtxRangePushA(const char *message) { (void)message; return NVTX_NO_PUSH_POP_TRACKING; }
static inline int nvtxRangePushEx(const nvtxEventAttributes_t *attr) { (void)attr; return NVTX_NO_PUSH_POP_TRACKING; }
static inline int nvtxRangePop(void) { return NVTX_NO_PUSH_POP_TRACKING; }
static inline nvtxRangeId_t nvtxRangeStartA(const char *message) { (void)message; return 0; }
static inline nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t *attr) { (void)attr; return 0; }
static inline void nvtxRangeEnd(nvtxRangeId_t id) { (void)id; }
static inline void nvtxMarkA(const char *message) { (void)message; }
static inline void nvtxMarkEx(const nvtxEventAttributes_t *attr) { (void)attr; }
static inline void nvtxNameOsThreadA(unsigned int tid, const char *name) { (void)tid; (void)name; }
static inline void nvtxNameCategoryA(unsigned int category, const char *name) { (void)category; (void)name; }
static inline void nvtxInitialize(const void *reserved) { (void)reserved; }
#endif
`
