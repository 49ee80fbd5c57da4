"""A minimal valid PE32+ DLL whose import table names the given DLLs: enough for pefile, built
in memory so the DLL closure check's tests need neither Windows files nor the network."""

import struct

FILE_ALIGN, SECTION_ALIGN, SECTION_RVA = 0x200, 0x1000, 0x1000


def _align(n: int, to: int) -> int:
    return (n + to - 1) // to * to


def pe_importing(*dlls: str) -> bytes:
    # The .idata section: descriptors (20 bytes each, zero-terminated), then per DLL its name,
    # a lookup table and an address table (one hint/name entry "f", zero-terminated).
    descriptors = bytearray()
    tail = bytearray()
    tail_start = 20 * (len(dlls) + 1)
    hint_name = tail_start
    tail += struct.pack("<H", 0) + b"f\0" + b"\0"  # hint, name, pad to even
    for dll in dlls:
        name_rva = SECTION_RVA + tail_start + len(tail)
        tail += dll.encode("ascii") + b"\0"
        tail += b"\0" * (-len(tail) % 8)
        ilt_rva = SECTION_RVA + tail_start + len(tail)
        tail += struct.pack("<QQ", SECTION_RVA + hint_name, 0)
        iat_rva = SECTION_RVA + tail_start + len(tail)
        tail += struct.pack("<QQ", SECTION_RVA + hint_name, 0)
        descriptors += struct.pack("<IIIII", ilt_rva, 0, 0, name_rva, iat_rva)
    descriptors += b"\0" * 20
    section = bytes(descriptors + tail)
    raw_size = _align(len(section), FILE_ALIGN)
    image_size = SECTION_RVA + _align(len(section), SECTION_ALIGN)

    dos = b"MZ" + b"\0" * 58 + struct.pack("<I", 0x40)
    coff = struct.pack("<HHIIIHH", 0x8664, 1, 0, 0, 0, 240, 0x2022)
    optional = struct.pack("<HBBIIIII", 0x20B, 14, 0, 0, raw_size, 0, 0, SECTION_RVA)
    optional += struct.pack(
        "<QIIHHHHHHIIIIHHQQQQII",
        0x180000000,
        SECTION_ALIGN,
        FILE_ALIGN,
        6,
        0,
        0,
        0,
        6,
        0,
        0,
        image_size,
        FILE_ALIGN,
        0,
        2,
        0x160,
        0x100000,
        0x1000,
        0x100000,
        0x1000,
        0,
        16,
    )
    directories = [(0, 0)] * 16
    directories[1] = (SECTION_RVA, len(descriptors))  # IMAGE_DIRECTORY_ENTRY_IMPORT
    optional += b"".join(struct.pack("<II", *d) for d in directories)
    header = struct.pack(
        "<8sIIIIIIHHI",
        b".idata",
        len(section),
        SECTION_RVA,
        raw_size,
        FILE_ALIGN,
        0,
        0,
        0,
        0,
        0xC0000040,
    )
    headers = dos + b"PE\0\0" + coff + optional + header
    return (
        headers + b"\0" * (FILE_ALIGN - len(headers)) + section + b"\0" * (raw_size - len(section))
    )
