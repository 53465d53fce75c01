"""The address phones should use: the Pi's IPv4 address on the table's network (phones often cannot
resolve ``.local`` names). Read from the interfaces, without sending anything anywhere."""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct
from typing import Any

SIOCGIFADDR = 0x8915


def interface_addresses() -> dict[str, str]:
    """IPv4 address of each network interface that has one (Linux)."""
    addresses = {}
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
            except OSError:
                continue
            addresses[name] = socket.inet_ntoa(packed[20:24])
    return addresses


def table_address() -> str | None:
    """The most likely address for phones: Wi-Fi first (the Pi's hotspot), then Ethernet, never loopback."""
    addresses = {name: ip for name, ip in interface_addresses().items() if not ip.startswith("127.")}
    for prefix in ("wlan", "wlp", "eth", "enp", "end"):
        for name, ip in sorted(addresses.items()):
            if name.startswith(prefix):
                return ip
    return next(iter(sorted(addresses.values())), None)


def loopback(host: str | None) -> bool:
    """Whether a listening address takes connections from this machine only (``127.0.0.1``, ``::1``,
    ``localhost``): phones cannot reach a companion bound there."""
    if not host:
        return False
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def base_url_for(public_url: str | None, request: Any, bind_host: str | None = None) -> str:
    """``public_url`` if configured; else the request's own host when it is not localhost, or when the companion
    listens on a loopback address (``bind_host``: the table's address would be one phones cannot open either);
    else the table address with the request's port."""
    if public_url:
        return public_url.rstrip("/")
    host = request.host  # "name:port"
    name, _, port = host.partition(":")
    if name not in ("localhost", "127.0.0.1", "::1", "[::1]") or loopback(bind_host):
        return f"{request.scheme}://{host}"
    address = table_address()
    if address is None:
        return f"{request.scheme}://{host}"
    return f"{request.scheme}://{address}{':' + port if port else ''}"
