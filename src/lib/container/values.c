/* Value tables: function types, file types, platforms, Metal data types,
 * fat cputypes and one-line tag descriptions (FORMAT §13, §19). Names are
 * spelled as CONTRACT.md requires. */
#include "config.h"
#include "container/le_read.h"
#include "container/tag_walk.h"
#include "container/value_names.h"
#include "container/target_names.h"

#include <stdio.h>
#include <string.h>

static const char *const function_types[] = {
    "vertex", "fragment", "kernel", "unqualified", "visible",
    "extern", "intersection", "mesh", "object",
};

bool mbx_function_type_known(uint8_t type)
{
    return type < sizeof function_types / sizeof *function_types || type == 255;
}

const char *mbx_function_type_name(uint8_t type, char *buf, size_t n)
{
    if (type < sizeof function_types / sizeof *function_types)
        return function_types[type];
    if (type == 255)
        return "none";
    snprintf(buf, n, "unknown-%u", type);
    return buf;
}

const char *mbx_file_type_name(uint8_t file_type, char *buf, size_t n)
{
    static const char *const names[] = { "executable", "coreimage", "dynamic", "symbol-companion" };
    if (file_type < 4)
        return names[file_type];
    snprintf(buf, n, "unknown-%u", file_type);
    return buf;
}

const char *mbx_target_os_name(uint8_t b, char *buf, size_t n)
{
    static const char *const names[] = {
        NULL, "macOS", "iOS", "tvOS", "watchOS", "bridgeOS", "macCatalyst", "iOS-simulator",
        "tvOS-simulator", "watchOS-simulator", "DriverKit", "visionOS", "visionOS-simulator",
    };
    if (b == 0)
        return "unknown";
    if (b >= 0x81 && b <= 0x8C)
        return names[b - 0x80];
    snprintf(buf, n, "unknown-0x%02x", b);
    return buf;
}

const char *mbx_target_text(const struct mtlbx_header *h, char *buf, size_t n)
{
    char os[24];
    if (!h->platform_byte && !h->os_major && !h->os_minor && !h->os_patch)
        snprintf(buf, n, "unknown");
    else
        snprintf(buf, n, "%s %u.%u.%u", mbx_target_os_name(h->platform_byte, os, sizeof os), h->os_major,
                 h->os_minor, h->os_patch);
    return buf;
}

/* MSL spellings of the Metal data type byte (FORMAT §13.1). */
static const char *const data_types[0x8D] = {
    [0x00] = "none", [0x01] = "struct", [0x02] = "array",
    [0x03] = "float", [0x04] = "float2", [0x05] = "float3", [0x06] = "float4",
    [0x07] = "float2x2", [0x08] = "float2x3", [0x09] = "float2x4",
    [0x0A] = "float3x2", [0x0B] = "float3x3", [0x0C] = "float3x4",
    [0x0D] = "float4x2", [0x0E] = "float4x3", [0x0F] = "float4x4",
    [0x10] = "half", [0x11] = "half2", [0x12] = "half3", [0x13] = "half4",
    [0x14] = "half2x2", [0x15] = "half2x3", [0x16] = "half2x4",
    [0x17] = "half3x2", [0x18] = "half3x3", [0x19] = "half3x4",
    [0x1A] = "half4x2", [0x1B] = "half4x3", [0x1C] = "half4x4",
    [0x1D] = "int", [0x1E] = "int2", [0x1F] = "int3", [0x20] = "int4",
    [0x21] = "uint", [0x22] = "uint2", [0x23] = "uint3", [0x24] = "uint4",
    [0x25] = "short", [0x26] = "short2", [0x27] = "short3", [0x28] = "short4",
    [0x29] = "ushort", [0x2A] = "ushort2", [0x2B] = "ushort3", [0x2C] = "ushort4",
    [0x2D] = "char", [0x2E] = "char2", [0x2F] = "char3", [0x30] = "char4",
    [0x31] = "uchar", [0x32] = "uchar2", [0x33] = "uchar3", [0x34] = "uchar4",
    [0x35] = "bool", [0x36] = "bool2", [0x37] = "bool3", [0x38] = "bool4",
    [0x3A] = "texture", [0x3B] = "sampler", [0x3C] = "pointer",
    [0x3E] = "r8unorm", [0x3F] = "r8snorm", [0x40] = "r16unorm", [0x41] = "r16snorm",
    [0x42] = "rg8unorm", [0x43] = "rg8snorm", [0x44] = "rg16unorm", [0x45] = "rg16snorm",
    [0x46] = "rgba8unorm", [0x47] = "rgba8unorm_srgb", [0x48] = "rgba8snorm",
    [0x49] = "rgba16unorm", [0x4A] = "rgba16snorm", [0x4B] = "rgb10a2unorm",
    [0x4C] = "rg11b10float", [0x4D] = "rgb9e5float",
    [0x4E] = "renderPipeline", [0x4F] = "computePipeline", [0x50] = "indirectCommandBuffer",
    [0x51] = "long", [0x52] = "long2", [0x53] = "long3", [0x54] = "long4",
    [0x55] = "ulong", [0x56] = "ulong2", [0x57] = "ulong3", [0x58] = "ulong4",
    [0x59] = "double", [0x5A] = "double2", [0x5B] = "double3", [0x5C] = "double4",
    [0x5D] = "float8", [0x5E] = "float16", [0x5F] = "half8", [0x60] = "half16",
    [0x61] = "int8", [0x62] = "int16", [0x63] = "uint8", [0x64] = "uint16",
    [0x65] = "short8", [0x66] = "short16", [0x67] = "ushort8", [0x68] = "ushort16",
    [0x69] = "char8", [0x6A] = "char16", [0x6B] = "uchar8", [0x6C] = "uchar16",
    [0x6D] = "long8", [0x6E] = "long16", [0x6F] = "ulong8", [0x70] = "ulong16",
    [0x71] = "double8", [0x72] = "double16",
    [0x73] = "visibleFunctionTable", [0x74] = "intersectionFunctionTable",
    [0x75] = "primitiveAccelerationStructure", [0x76] = "instanceAccelerationStructure",
    [0x77] = "bool8", [0x78] = "bool16",
    [0x79] = "bfloat", [0x7A] = "bfloat2", [0x7B] = "bfloat3", [0x7C] = "bfloat4",
    [0x8B] = "depthStencilState", [0x8C] = "tensor",
};

bool mbx_data_type_known(uint8_t type)
{
    return type < sizeof data_types / sizeof *data_types && data_types[type];
}

const char *mbx_data_type_name(uint8_t type, char *buf, size_t n)
{
    if (mbx_data_type_known(type))
        return data_types[type];
    snprintf(buf, n, "unknown-0x%02x", type);
    return buf;
}

const char *mbx_cputype_name(uint32_t cputype)
{
    switch (cputype) {
    case 0x01000017: return "AIR64";
    case 0x01000013: return "Apple GPU";
    case 0x01000014: return "AMD GPU";
    case 0x01000015: return "Intel GPU";
    default: return NULL;
    }
}

/* The tags this library knows, with a one-line description each. A switch
 * on the FourCC: the tag walker asks for every tag of every function,
 * hundreds of thousands of times on a large library. */
static const char *tag_text(uint32_t fourcc)
{
    switch (fourcc) {
    case FOURCC('N', 'A', 'M', 'E'): return "name (function, or library install name)";
    case FOURCC('T', 'Y', 'P', 'E'): return "function type";
    case FOURCC('H', 'A', 'S', 'H'): return "SHA-256 of the function's module bytes";
    case FOURCC('O', 'F', 'F', 'T'): return "offsets of public metadata, private metadata and module";
    case FOURCC('V', 'E', 'R', 'S'): return "AIR and Metal language versions";
    case FOURCC('M', 'D', 'S', 'Z'): return "module size in bytes";
    case FOURCC('S', 'O', 'F', 'F'): return "offset of the function's embedded source archive";
    case FOURCC('R', 'F', 'L', 'T'): return "offset of the function's reflection group";
    case FOURCC('T', 'E', 'S', 'S'): return "tessellation patch type and control points";
    case FOURCC('L', 'A', 'Y', 'R'): return "data type of the render target array index";
    case FOURCC('U', 'U', 'I', 'D'): return "library UUID";
    case FOURCC('H', 'S', 'R', 'C'): return "embedded sources section (no working directory)";
    case FOURCC('H', 'S', 'R', 'D'): return "embedded sources section with working directory";
    case FOURCC('H', 'D', 'Y', 'N'): return "dynamic header section";
    case FOURCC('V', 'L', 'S', 'T'): return "exported variable list section";
    case FOURCC('I', 'L', 'S', 'T'): return "imported symbol list section";
    case FOURCC('R', 'L', 'S', 'T'): return "reflection list section";
    case FOURCC('S', 'L', 'S', 'T'): return "script list section";
    case FOURCC('H', 'S', 'R', 'P'): return "header extension entry (offset, size) of unknown purpose";
    case FOURCC('C', 'N', 'S', 'T'): return "function constants";
    case FOURCC('V', 'A', 'T', 'T'): return "vertex attributes";
    case FOURCC('V', 'A', 'T', 'Y'): return "vertex attribute data types";
    case FOURCC('R', 'E', 'T', 'R'): return "return value reflection (opaque)";
    case FOURCC('A', 'R', 'G', 'R'): return "argument reflection (opaque)";
    case FOURCC('D', 'E', 'B', 'I'): return "debug info: source line and path";
    case FOURCC('D', 'E', 'P', 'F'): return "dependency file path";
    case FOURCC('S', 'A', 'R', 'C'): return "embedded source archive (bzip2'd tar)";
    case FOURCC('D', 'Y', 'N', 'L'): return "linked dynamic library";
    case FOURCC('R', 'B', 'U', 'F'): return "reflection buffer (FlatBuffer)";
    case FOURCC('R', 'B', 'U', 'Z'): return "compressed reflection buffer";
    case FOURCC('S', 'B', 'U', 'F'): return "script buffer (FlatBuffer)";
    case FOURCC('E', 'N', 'D', 'T'): return "end of tag group";
    default: return NULL;
    }
}

bool tag_known(uint32_t fourcc) { return tag_text(fourcc) != NULL; }

const char *mbx_tag_description(const char *fourcc)
{
    if (strlen(fourcc) != 4)
        return NULL;
    return tag_text(FOURCC((uint8_t)fourcc[0], (uint8_t)fourcc[1], (uint8_t)fourcc[2], (uint8_t)fourcc[3]));
}
