//! Who the client is, for per-client limits: the TCP peer, or behind trusted reverse proxies the
//! address they say they received the request from.

use ipnet::IpNet;
use poem::http::HeaderMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};

/// Reads TRUSTED_PROXIES: comma-separated ranges (`10.0.0.0/8`, `::1/128`) or single addresses.
pub fn parse_trusted_proxies(list: &str) -> anyhow::Result<Vec<IpNet>> {
    list.split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .map(|entry| {
            entry
                .parse::<IpNet>()
                .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                .map(|net| net.trunc())
                .map_err(|_| {
                    anyhow::anyhow!(
                        "TRUSTED_PROXIES: {entry:?} is not an address or range like 10.0.0.0/8 or 2001:db8::/32"
                    )
                })
        })
        .collect()
}

/// The client's address: the peer, unless the peer is a trusted proxy; then the right-most
/// `X-Forwarded-For` entry that is not itself a trusted proxy. Entries left of that one were
/// written by the client and prove nothing.
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    let mut client = canonical(peer);
    if !is_trusted(&client) {
        return client;
    }
    let forwarded: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    for entry in forwarded.iter().rev() {
        // An entry a trusted proxy wrote that is not an address: stop at the last hop we can name.
        let Some(hop) = parse_hop(entry) else { break };
        client = hop;
        if !is_trusted(&hop) {
            break;
        }
    }
    client
}

/// The key per-client limits count under. IPv6 clients are grouped by their /64: one subscriber
/// usually holds a whole /64 and could otherwise take a fresh address for every request.
pub fn client_key(ip: IpAddr) -> String {
    match canonical(ip) {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let prefix = u128::from(v6) & (u128::MAX << 64);
            format!("{}/64", Ipv6Addr::from(prefix))
        }
    }
}

/// The IPv6 /48 a client key (`client_key`) of an IPv6 /64 lies in: one cheap allocation holds
/// 65,536 /64s, so failure budgets count per /48 as well. None for IPv4 clients.
pub fn network_of(client: &str) -> Option<String> {
    let prefix = client.strip_suffix("/64")?.parse::<Ipv6Addr>().ok()?;
    let network = u128::from(prefix) & (u128::MAX << 80);
    Some(format!("{}/48", Ipv6Addr::from(network)))
}

/// IPv4 clients reaching a dual-stack socket show up as `::ffff:a.b.c.d`.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    }
}

/// An `X-Forwarded-For` entry: an address, or (as some proxies write it) an address with a port.
fn parse_hop(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    entry
        .parse::<IpAddr>()
        .or_else(|_| entry.parse::<SocketAddr>().map(|s| s.ip()))
        .ok()
        .map(canonical)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for v in values {
            map.append("x-forwarded-for", v.parse().unwrap());
        }
        map
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn ranges_and_single_addresses_parse() {
        let nets = parse_trusted_proxies(" 10.0.0.0/8, 192.168.1.7 ,::1,2001:db8::/32,").unwrap();
        assert_eq!(nets.len(), 4);
        assert!(nets[1].contains(&ip("192.168.1.7")));
        assert!(!nets[1].contains(&ip("192.168.1.8")));
        assert!(parse_trusted_proxies("").unwrap().is_empty());
        let err = parse_trusted_proxies("10.0.0.0/8,10.0.0.0/33").unwrap_err().to_string();
        assert!(err.contains("TRUSTED_PROXIES") && err.contains("10.0.0.0/33"), "{err}");
        assert!(parse_trusted_proxies("localhost").is_err());
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_says() {
        let trusted = parse_trusted_proxies("10.0.0.0/8").unwrap();
        let forged = headers(&["1.2.3.4"]);
        assert_eq!(client_address(ip("203.0.113.9"), &forged, &trusted), ip("203.0.113.9"));
        assert_eq!(client_address(ip("203.0.113.9"), &forged, &[]), ip("203.0.113.9"));
    }

    #[test]
    fn behind_trusted_proxies_the_right_most_untrusted_hop_is_the_client() {
        let trusted = parse_trusted_proxies("10.0.0.0/8,127.0.0.1").unwrap();
        let peer = ip("127.0.0.1");
        // The client forged the first entry; the proxies appended the rest.
        let chain = headers(&["6.6.6.6, 198.51.100.4", "10.1.2.3"]);
        assert_eq!(client_address(peer, &chain, &trusted), ip("198.51.100.4"));
        assert_eq!(
            client_address(peer, &headers(&["198.51.100.4:5123"]), &trusted),
            ip("198.51.100.4")
        );
        assert_eq!(
            client_address(peer, &headers(&["[2001:db8::1]:443"]), &trusted),
            ip("2001:db8::1")
        );
        // No header: the proxy itself is all we know.
        assert_eq!(client_address(peer, &HeaderMap::new(), &trusted), peer);
        // Every hop trusted: the left-most one.
        assert_eq!(
            client_address(peer, &headers(&["10.9.9.9, 10.1.1.1"]), &trusted),
            ip("10.9.9.9")
        );
        // Garbage written by a trusted hop: the last address that could be read.
        assert_eq!(
            client_address(peer, &headers(&["1.1.1.1, unknown, 10.1.1.1"]), &trusted),
            ip("10.1.1.1")
        );
        assert_eq!(
            client_address(ip("::ffff:127.0.0.1"), &headers(&["198.51.100.4"]), &trusted),
            ip("198.51.100.4")
        );
    }

    #[test]
    fn ipv6_clients_are_keyed_by_their_64() {
        assert_eq!(client_key(ip("2001:db8:1:2:aaaa::1")), "2001:db8:1:2::/64");
        assert_eq!(client_key(ip("2001:db8:1:2:ffff:ffff:ffff:ffff")), "2001:db8:1:2::/64");
        assert_eq!(client_key(ip("2001:db8:1:3::1")), "2001:db8:1:3::/64");
        assert_eq!(client_key(ip("198.51.100.4")), "198.51.100.4");
        assert_eq!(client_key(ip("::ffff:198.51.100.4")), "198.51.100.4");
    }

    #[test]
    fn ipv6_clients_also_count_in_their_48() {
        let a = client_key(ip("2001:db8:1:2::1"));
        let b = client_key(ip("2001:db8:1:ffff::1"));
        assert_ne!(a, b);
        assert_eq!(network_of(&a).as_deref(), Some("2001:db8:1::/48"));
        assert_eq!(network_of(&a), network_of(&b));
        assert_eq!(
            network_of(&client_key(ip("2001:db8:2::1"))).as_deref(),
            Some("2001:db8:2::/48")
        );
        assert_eq!(network_of("198.51.100.4"), None);
        assert_eq!(network_of("unknown"), None);
    }
}
