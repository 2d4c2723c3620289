"""Framing and message codec: the firmware's hand-written COBS/CRC agree with the libraries,
and the decoders never raise anything but their documented errors."""

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from hal.firmware.aetherlink_fw import framing as fw
from hal.firmware.aetherlink_fw import wire
from hal.link.codec import decode_message
from hal.link.errors import FrameError, MessageError
from hal.link.framing import FrameDecoder, crc16, decode_frame, encode_frame

payloads = st.binary(min_size=0, max_size=600)


@given(payloads)
def test_firmware_framing_matches_the_libraries(payload):
    assert fw.crc16(payload) == crc16(payload)
    assert fw.frame(payload) == encode_frame(payload)
    if payload:  # an empty payload is no message; the decoder rightly refuses it
        assert decode_frame(fw.frame(payload)[:-1]) == payload
    assert fw.cobs_decode(fw.cobs_encode(payload)) == payload


def test_crc_check_value():
    assert crc16(b"123456789") == 0x29B1 == fw.crc16(b"123456789")


@given(st.lists(st.binary(min_size=1, max_size=80), max_size=8), st.binary(max_size=60), st.integers(1, 50))
def test_decoder_recovers_every_frame_after_garbage(frames, garbage, chunk):
    stream = garbage.replace(b"\x00", b"") + b"\x00" + b"".join(encode_frame(f) for f in frames)
    decoder = FrameDecoder()
    got = []
    for i in range(0, len(stream), chunk):
        got.extend(decoder.feed(stream[i : i + chunk]))
    assert [g for g in got if isinstance(g, bytes)] == frames


@settings(max_examples=300)
@given(st.binary(max_size=3000))
def test_frame_decoder_fuzz(data):
    decoder = FrameDecoder()
    for item in decoder.feed(data) + decoder.feed(b"\x00"):
        assert isinstance(item, bytes | FrameError)


@settings(max_examples=500)
@given(st.binary(max_size=300))
def test_message_decoder_fuzz(data):
    with contextlib.suppress(MessageError):
        decode_message(data)


@settings(max_examples=300)
@given(
    st.sampled_from(sorted({wire.HELLO, wire.BLOCK, wire.HEARTBEAT, wire.EVENT, wire.LED_SET, wire.REQUEST_BLOCKS})),
    st.binary(max_size=200),
)
def test_message_decoder_fuzz_with_valid_types(kind, rest):
    with contextlib.suppress(MessageError):
        decode_message(bytes([kind]) + rest)


@settings(max_examples=300)
@given(st.binary(max_size=400))
def test_firmware_side_never_crashes_on_host_bytes(data):
    from hal.firmware.aetherlink_fw.device import DeviceLink

    device = DeviceLink("dev", channels=9, leds=4, session=1)
    device.receive(data)
    device.poll(0)
    assert device.take_output()


token_ids = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=20)
values = st.one_of(st.integers(0, 0xFFFFFFFF), st.lists(token_ids, max_size=5).map(tuple))


@given(
    st.integers(0, 0xFFFF),
    st.integers(0, 3),
    st.integers(0, 0xFFFF),
    st.integers(0, 0xFFFF),
    st.integers(0, 0xFFFFFFFF),
    st.lists(values, max_size=8),
)
def test_block_round_trip(seq, flags, block, version, scan, vals):
    msg = decode_message(wire.Block(seq, flags, block, version, scan, vals).encode())
    assert isinstance(msg, wire.Block)
    assert (msg.seq, msg.flags, msg.block, msg.version, msg.changed_scan, msg.values) == (
        seq,
        flags,
        block,
        version,
        scan,
        vals,
    )


@given(st.lists(st.integers(0, 0xFFFF), max_size=40), st.integers(0, 0xFFFFFFFF))
def test_heartbeat_and_other_round_trips(versions, scan):
    hb = decode_message(wire.Heartbeat(scan, 5, 6, 7, 1, versions).encode())
    assert isinstance(hb, wire.Heartbeat) and hb.versions == versions and hb.scan == scan
    hello = decode_message(wire.Hello("dev-aureon", 99, (1, 2, 3), 1000, 100, 68, 4, 63, 5, 3).encode())
    assert isinstance(hello, wire.Hello) and hello.device_id == "dev-aureon" and hello.blocks == 17
    req = decode_message(wire.request_blocks([3, 9, 10]).encode())
    assert isinstance(req, wire.RequestBlocks) and req.wanted() == [3, 9, 10]
    led = decode_message(wire.LedSet(4, 8, [(1, 2, 3, wire.LED_BLINK)]).encode())
    assert isinstance(led, wire.LedSet) and led.leds == [(1, 2, 3, wire.LED_BLINK)]


def test_specific_message_errors():
    for bad, words in [
        (b"", "empty"),
        (b"\x7f", "unknown message type"),
        (wire.EventAck(3).encode() + b"\x00", "trailing"),
        (wire.Event(1, 2, 1, 3).encode()[:-1], "truncated"),
        (bytes([wire.BLOCK]) + bytes(11) + b"\x01\x09", "unknown value tag"),
    ]:
        try:
            decode_message(bad)
        except MessageError as exc:
            assert words in str(exc)
        else:
            raise AssertionError(f"{bad!r} decoded")
