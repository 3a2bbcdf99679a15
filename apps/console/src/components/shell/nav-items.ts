import {
  ArrowRightLeft,
  Boxes,
  HardDrive,
  History,
  Layers,
  LayoutDashboard,
  type LucideIcon,
  Server,
} from "lucide-react";

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
}

/** Only pages that work are listed; each capability adds its page here. */
export const NAV_ITEMS: NavItem[] = [
  { href: "/", label: "Overview", icon: LayoutDashboard },
  { href: "/jobs", label: "Jobs", icon: Boxes },
  { href: "/pools", label: "Pools", icon: Layers },
  { href: "/hosts", label: "Hosts", icon: Server },
  { href: "/volumes", label: "Volumes", icon: HardDrive },
  { href: "/preemptions", label: "Preemptions", icon: ArrowRightLeft },
  { href: "/audit", label: "Audit log", icon: History },
];
