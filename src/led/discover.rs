//! Finding serial ports, and the device a display was set up with: a USB device is remembered
//! by vendor id, product id and serial number, so it is found again under a new port name after
//! being unplugged.

use std::fmt;
use std::time::Duration;

use serialport::{SerialPort, SerialPortType};

/// A serial port on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortEntry {
    /// The name to open, e.g. `/dev/ttyUSB0`.
    pub name: String,
    /// The USB device behind it, if any.
    pub usb: Option<UsbDevice>,
}

/// A USB serial device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsbDevice {
    /// Vendor and product id and serial number.
    pub id: UsbId,
    /// Manufacturer string.
    pub manufacturer: Option<String>,
    /// Product string.
    pub product: Option<String>,
}

/// What identifies a USB device across reconnects.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UsbId {
    /// Vendor id.
    pub vid: u16,
    /// Product id.
    pub pid: u16,
    /// Serial number; `None` matches any (for boards that report none).
    pub serial: Option<String>,
}

impl UsbId {
    /// Parses `VID:PID` or `VID:PID:SERIAL` with the ids in hex (`1a86:7523`).
    pub fn parse(spec: &str) -> Option<UsbId> {
        let mut parts = spec.splitn(3, ':');
        let hex = |s: &str| {
            (s.len() == 4)
                .then(|| u16::from_str_radix(s, 16).ok())
                .flatten()
        };
        let vid = hex(parts.next()?)?;
        let pid = hex(parts.next()?)?;
        let serial = parts.next().map(str::to_string);
        Some(UsbId { vid, pid, serial })
    }

    /// Whether a port's USB device is this one.
    fn matches(&self, other: &UsbId) -> bool {
        self.vid == other.vid
            && self.pid == other.pid
            && (self.serial.is_none() || self.serial == other.serial)
    }
}

impl fmt::Display for UsbId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04x}:{:04x}", self.vid, self.pid)?;
        if let Some(s) = &self.serial {
            write!(f, ":{s}")?;
        }
        Ok(())
    }
}

/// The serial ports on this machine.
pub fn list() -> Result<Vec<PortEntry>, serialport::Error> {
    Ok(serialport::available_ports()?
        .into_iter()
        .map(|p| PortEntry {
            name: p.port_name,
            usb: match p.port_type {
                SerialPortType::UsbPort(u) => Some(UsbDevice {
                    id: UsbId {
                        vid: u.vid,
                        pid: u.pid,
                        serial: u.serial_number,
                    },
                    manufacturer: u.manufacturer,
                    product: u.product,
                }),
                _ => None,
            },
        })
        .collect())
}

/// The device a display talks to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A USB device, wherever it shows up.
    Usb(UsbId),
    /// A fixed port name (not a USB device, or one that is not plugged in now).
    Path(String),
}

impl Target {
    /// The target for what the user typed: `VID:PID[:SERIAL]`, or a port name, which is
    /// remembered by its USB identity when it is a USB device now.
    pub fn resolve(spec: &str) -> Target {
        if let Some(id) = UsbId::parse(spec) {
            return Target::Usb(id);
        }
        let usb = list().ok().and_then(|ports| {
            ports
                .into_iter()
                .find(|p| p.name == spec)
                .and_then(|p| p.usb)
        });
        match usb {
            Some(u) => Target::Usb(u.id),
            None => Target::Path(spec.to_string()),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Usb(id) => write!(f, "USB device {id}"),
            Target::Path(p) => f.write_str(p),
        }
    }
}

/// Opens the port a display talks to; called again after every failure.
pub trait Connector: Send {
    /// Opens the port.
    fn connect(&mut self) -> Result<Box<dyn SerialPort>, serialport::Error>;
}

/// Opens a [`Target`] at a baud rate.
#[derive(Clone, Debug)]
pub struct SerialConnector {
    /// What to open.
    pub target: Target,
    /// Baud rate (Adalight and WLED default to 115200).
    pub baud: u32,
}

impl Connector for SerialConnector {
    fn connect(&mut self) -> Result<Box<dyn SerialPort>, serialport::Error> {
        let name = match &self.target {
            Target::Path(p) => p.clone(),
            Target::Usb(id) => list()?
                .into_iter()
                .find(|p| p.usb.as_ref().is_some_and(|u| id.matches(&u.id)))
                .map(|p| p.name)
                .ok_or_else(|| {
                    serialport::Error::new(
                        serialport::ErrorKind::NoDevice,
                        format!("USB device {id} is not plugged in"),
                    )
                })?,
        };
        serialport::new(&name, self.baud)
            .timeout(Duration::from_millis(100))
            .open()
            .map_err(|e| serialport::Error::new(e.kind, format!("{name}: {}", e.description)))
    }
}
