import broadcastIcon from 'bootstrap-icons/icons/broadcast.svg?raw';
import { useState } from 'react';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import { Link, NavLink, useLocation } from 'react-router';
import { Icon } from '@/components/ui/icon';
import { useWhoAmI } from '@/data/accounts/get-whoami';
import { UserMenu } from './user-menu';

interface NavItem {
  to: string;
  label: string;
  adminOnly?: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/streams', label: 'Streams' },
  { to: '/storages', label: 'Storages' },
  { to: '/node-groups', label: 'Node groups' },
  { to: '/nodes', label: 'Nodes', adminOnly: true },
  { to: '/metrics', label: 'Metrics' },
  { to: '/analytics', label: 'Analytics' },
  { to: '/billing/account', label: 'Billing' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/accounts', label: 'Accounts', adminOnly: true },
  { to: '/audit', label: 'Audit', adminOnly: true },
];

export function TopNav() {
  const location = useLocation();
  // Open only for the location it was opened at: every route change collapses it.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const me = useWhoAmI();
  const isAdmin = me.data?.role === 'ADMIN';
  const expanded = openAt === location.key;

  return (
    <Navbar
      expand="lg"
      bg="dark"
      data-bs-theme="dark"
      className="app-navbar"
      expanded={expanded}
      onToggle={(open) => setOpenAt(open ? location.key : null)}
    >
      <Container fluid>
        <Navbar.Brand as={Link} to="/">
          <Icon svg={broadcastIcon} className="me-2" />
          Streamcloud
        </Navbar.Brand>
        <Navbar.Toggle aria-controls="main-navigation" aria-expanded={expanded} />
        <Navbar.Collapse id="main-navigation">
          <Nav className="me-auto" as="ul">
            {NAV_ITEMS.filter((item) => isAdmin || !item.adminOnly).map((item) => (
              <Nav.Item as="li" key={item.to}>
                <Nav.Link as={NavLink} to={item.to}>
                  {item.label}
                </Nav.Link>
              </Nav.Item>
            ))}
          </Nav>
          <UserMenu username={me.data?.username} />
        </Navbar.Collapse>
      </Container>
    </Navbar>
  );
}
