"""Who a connection's client is, for the per-client limits (:mod:`dosverify.service.protocol`):
its peer address, an IPv6 one by its /64 (what one subscriber, one host or one LAN is given, so
an attacker cannot take a fresh address of its own /64 for each connection); behind a reverse
proxy that is listed as trusted, the address the proxy names in ``X-Forwarded-For`` or
``Forwarded`` (RFC 7239), taking the rightmost address of the chain that is not itself a trusted
proxy (nginx's ``real_ip_recursive``): every address to the left of it was written by the client
and may be anything. Pure functions, no I/O."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

HEADERS = ("x-forwarded-for", "forwarded")  # the client address headers that can be believed


class BadSetting(ValueError):
    """A list of networks or a header name that cannot be used (its message says why)."""


def parse_networks(text: str) -> tuple[Network, ...]:
    """Addresses or networks separated by commas or spaces (``10.0.0.1, 192.168.0.0/16 ::1``);
    a bare address is its own /32 or /128. Raises BadSetting naming the first bad entry."""
    out = []
    for item in text.replace(",", " ").split():
        try:
            out.append(_plain(ipaddress.ip_network(item, strict=False)))
        except ValueError:
            raise BadSetting(f"{item!r} is not an IP address or network") from None
    return tuple(out)


def _plain(net: Network) -> Network:
    """An IPv4-mapped IPv6 network (``::ffff:10.0.0.0/104``) as the IPv4 network it is."""
    if isinstance(net, ipaddress.IPv6Network) and net.network_address.ipv4_mapped is not None and net.prefixlen >= 96:
        return ipaddress.IPv4Network((net.network_address.ipv4_mapped, net.prefixlen - 96))
    return net


def parse_address(text: str) -> Address | None:
    """An address as a peer or a proxy header gives it: ``1.2.3.4``, ``1.2.3.4:5678``, ``::1``,
    ``[::1]``, ``[::1]:5678``, ``fe80::1%eth0``; an IPv4-mapped IPv6 address is the IPv4 address.
    None for anything else (``unknown``, an obfuscated ``_name``, a host name, garbage)."""
    text = text.strip()
    if text.startswith("["):  # [v6] or [v6]:port
        end = text.find("]")
        if end < 0:
            return None
        text = text[1:end]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    text = text.split("%", 1)[0]  # an IPv6 zone
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def address_key(host: str) -> str:
    """The key one client's connections are counted by: an IPv4 address as itself, an IPv6 one
    as its /64 (``2001:db8:1:2::/64``); what is not an address (a Unix socket's peer) as given."""
    ip = parse_address(host)
    if ip is None:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def is_trusted(ip: Address | None, trusted: Sequence[Network]) -> bool:
    return ip is not None and any(ip.version == net.version and ip in net for net in trusted)


def _split_quoted(text: str, sep: str) -> list[str]:
    """`text` split at `sep` outside double quotes (a quoted-string may hold commas and semicolons)."""
    parts, cur, quoted, escaped = [], [], False, False
    for ch in text:
        if escaped:
            cur.append(ch)
            escaped = False
        elif quoted and ch == "\\":
            cur.append(ch)
            escaped = True
        elif ch == '"':
            cur.append(ch)
            quoted = not quoted
        elif ch == sep and not quoted:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        out, escaped = [], False
        for ch in value[1:-1]:
            if escaped or ch != "\\":
                out.append(ch)
                escaped = False
            else:
                escaped = True
        return "".join(out)
    return value


def forwarded_nodes(values: Iterable[str]) -> list[str]:
    """The ``for=`` nodes of ``Forwarded`` header fields (RFC 7239), in order, the fields taken
    as one list: ``for=192.0.2.60;proto=http, for="[2001:db8::17]:4711"`` gives
    ``['192.0.2.60', '[2001:db8::17]:4711']``. An element without ``for=`` is a node nobody
    named (``''``, which is no address)."""
    nodes = []
    for value in values:
        for element in _split_quoted(value, ","):
            if not element.strip():
                continue
            node = ""
            for pair in _split_quoted(element, ";"):
                name, eq, val = pair.partition("=")
                if eq and name.strip().lower() == "for":
                    node = _unquote(val)
                    break
            nodes.append(node)
    return nodes


def x_forwarded_for_nodes(values: Iterable[str]) -> list[str]:
    """The addresses of ``X-Forwarded-For`` fields, in order (``a, b`` then ``c`` is ``a, b, c``)."""
    return [node.strip() for value in values for node in value.split(",") if node.strip()]


def client_address(
    peer: str, headers: Iterable[tuple[bytes, bytes]], trusted: Sequence[Network], header: str = "x-forwarded-for"
) -> str:
    """The client of a request that came from `peer` with `headers` (lower-case names, as
    uvicorn gives them): `peer` itself unless it is a trusted proxy; then the chain of
    addresses in `header` (``x-forwarded-for`` or ``forwarded``) followed by `peer` is read from
    the right, and the first address that is not a trusted proxy is the client. A node there
    that is no address (``unknown``, ``_hidden``, garbage) stops the walk: the client is the
    trusted proxy that named it. A chain of trusted proxies only: its leftmost. The address is
    returned as text, in its plain form (``::ffff:1.2.3.4`` as ``1.2.3.4``)."""
    ip = parse_address(peer)
    if not trusted or not is_trusted(ip, trusted):
        return peer
    name = header.encode()
    values = [v.decode("latin-1") for k, v in headers if k == name]
    chain = forwarded_nodes(values) if header == "forwarded" else x_forwarded_for_nodes(values)
    client = str(ip)
    for node in reversed(chain):
        hop = parse_address(node)
        if hop is None:
            return client
        client = str(hop)
        if not is_trusted(hop, trusted):
            return client
    return client
