"""Install and offline: the manifest, the icons, the service worker and the offline page."""
