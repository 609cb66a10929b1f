/* Value tables: function types, file types, platforms, Metal data types,
 * fat cputypes and one-line tag descriptions (FORMAT §13, §19). Names are
 * spelled as CONTRACT.md requires. */
#include "config.h"
#include "internal.h"

#include <stdio.h>

static const char *const function_types[] = {
    "vertex", "fragment", "kernel", "unqualified", "visible",
    "extern", "intersection", "mesh", "object",
};

bool mtlbx_function_type_known(uint8_t type)
{
    return type < sizeof function_types / sizeof *function_types || type == 255;
}

const char *mtlbx_function_type_name(uint8_t type, char *buf, size_t n)
{
    if (type < sizeof function_types / sizeof *function_types)
        return function_types[type];
    if (type == 255)
        return "none";
    snprintf(buf, n, "unknown-%u", type);
    return buf;
}

const char *mtlbx_file_type_name(uint8_t file_type, char *buf, size_t n)
{
    static const char *const names[] = { "executable", "coreimage", "dynamic", "symbol-companion" };
    if (file_type < 4)
        return names[file_type];
    snprintf(buf, n, "unknown-%u", file_type);
    return buf;
}

const char *mtlbx_target_os_name(uint8_t b, char *buf, size_t n)
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

bool mtlbx_data_type_known(uint8_t type)
{
    return type < sizeof data_types / sizeof *data_types && data_types[type];
}

const char *mtlbx_data_type_name(uint8_t type, char *buf, size_t n)
{
    if (mtlbx_data_type_known(type))
        return data_types[type];
    snprintf(buf, n, "unknown-0x%02x", type);
    return buf;
}

const char *mtlbx_cputype_name(uint32_t cputype)
{
    switch (cputype) {
    case 0x01000017: return "AIR64";
    case 0x01000013: return "Apple GPU";
    case 0x01000014: return "AMD GPU";
    case 0x01000015: return "Intel GPU";
    default: return NULL;
    }
}

static const struct {
    const char *tag, *text;
} tag_texts[] = {
    { "NAME", "name (function, or library install name)" },
    { "TYPE", "function type" },
    { "HASH", "SHA-256 of the function's module bytes" },
    { "OFFT", "offsets of public metadata, private metadata and module" },
    { "VERS", "AIR and Metal language versions" },
    { "MDSZ", "module size in bytes" },
    { "SOFF", "offset of the function's embedded source archive" },
    { "RFLT", "offset of the function's reflection group" },
    { "TESS", "tessellation patch type and control points" },
    { "LAYR", "data type of the render target array index" },
    { "UUID", "library UUID" },
    { "HSRC", "embedded sources section (no working directory)" },
    { "HSRD", "embedded sources section with working directory" },
    { "HDYN", "dynamic header section" },
    { "VLST", "exported variable list section" },
    { "ILST", "imported symbol list section" },
    { "RLST", "reflection list section" },
    { "SLST", "script list section" },
    { "HSRP", "header extension entry (offset, size) of unknown purpose" },
    { "CNST", "function constants" },
    { "VATT", "vertex attributes" },
    { "VATY", "vertex attribute data types" },
    { "RETR", "return value reflection (opaque)" },
    { "ARGR", "argument reflection (opaque)" },
    { "DEBI", "debug info: source line and path" },
    { "DEPF", "dependency file path" },
    { "SARC", "embedded source archive (bzip2'd tar)" },
    { "DYNL", "linked dynamic library" },
    { "RBUF", "reflection buffer (FlatBuffer)" },
    { "RBUZ", "compressed reflection buffer" },
    { "SBUF", "script buffer (FlatBuffer)" },
    { "ENDT", "end of tag group" },
};

const char *mtlbx_tag_description(const char *fourcc)
{
    for (size_t i = 0; i < sizeof tag_texts / sizeof *tag_texts; i++)
        if (memcmp(tag_texts[i].tag, fourcc, 4) == 0 && fourcc[4] == '\0')
            return tag_texts[i].text;
    return NULL;
}
